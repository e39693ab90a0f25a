"""Small rulesets shared by several test modules."""

#: A six-rank deck (9 to A) with the standard categories: small enough to enumerate.
SMALL = """\
name: small
deck:
  ranks: [9, T, J, Q, K, A]
hand: {size: 5}
categories:
  four_of_a_kind:  {pattern: "XXXX Y"}
  full_house:      {pattern: "XXX YY"}
  flush:           {pattern: "flush"}
  straight:        {pattern: "run"}
  three_of_a_kind: {pattern: "XXX Y Z"}
  two_pair:        {pattern: "XX YY Z"}
  pair:            {pattern: "XX Y Z W"}
  high_card:       {pattern: "X Y Z W V"}
order: [four_of_a_kind, full_house, flush, straight, three_of_a_kind, two_pair, pair, high_card]
"""
