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

#: The bug (a joker that is an ace or completes a straight or flush), all
#: 2,869,685 five-card deals of 53 cards: the counts stated in the issue texts
#: (no published table exists); straight flushes include the royal.
BUG_COUNTS = {
    "five_of_a_kind": 1,
    "straight_flush": 204,
    "four_of_a_kind": 828,
    "full_house": 4368,
    "flush": 7804,
    "straight": 20532,
    "three_of_a_kind": 63360,
    "two_pair": 138600,
    "pair": 1215024,
    "high_card": 1418964,
}
