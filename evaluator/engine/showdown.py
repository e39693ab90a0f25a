"""Comparing hands and settling showdowns as players meet them.

``compare`` applies, in order: the qualifier, the ``beats:`` exceptions, then
the hands' strength (value, natural-beats-wild, suit tie-break). With
exceptions the relation is not transitive, so a showdown's winners are the
hands that beat or tie every other hand, or else the *top cycle*: the smallest
group whose members each beat or tie every hand outside it.

Games say which cards may play (any five of seven; exactly two hole cards and
three from the board), hi-lo games split the pot between halves judged by their
own rulesets, double-board games split it between boards, and the chips are
divided in whole numbers with the odd chip given by a stated rule.

Seats: players are given in seat order starting with the first seat after
the button (seat 0 acts first after the flop). That order decides only who
receives an odd chip under ``odd_chip: first_after_button``; it never decides
who wins.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from itertools import combinations, product
from typing import TYPE_CHECKING, Any

from ..core.errors import CardError, GameError, error
from ..rules.cards import Card
from .cardread import read_cards
from .evaluate import engine_for
from .hand import Hand
from .pot import Half, pot_fractions, split_pot

if TYPE_CHECKING:
    from ..rules.ruleset import Game, Rules
    from .fill import Classification, Fill

CardsLike = str | Sequence[Card | str]
MAX_PLAYERS = 23
#: A faster way to settle one half of a showdown: (half's ruleset, holes, board,
#: game) -> (the players' hands, the winners), or None when it cannot decide.
HalfDecider = Callable[
    ["Rules", Sequence[Sequence[Card]], Sequence[Card], "Game | None"], "tuple[list[Hand | None], list[int]] | None"
]


# --- comparing two hands ------------------------------------------------------------


def _hand(ruleset: Rules, hand: CardsLike | Hand) -> Hand:
    if isinstance(hand, Hand):
        return own_hand(ruleset, hand)
    return engine_for(ruleset).evaluate(read_cards(ruleset, hand))


def own_hand(ruleset: Rules, hand: Hand) -> Hand:
    """``hand`` when it was evaluated by ``ruleset`` (or an identical one), else TypeError:
    a hand of another ruleset has another category order and strength."""
    if (
        hand.ruleset is not ruleset
        and hand.ruleset.data != ruleset.data
        and family(hand.ruleset) is not family(ruleset)
    ):
        raise TypeError(
            f"a hand of {hand.ruleset.name} cannot be compared by {ruleset.name}: evaluate its cards with {ruleset.name} instead"
        )
    return hand


def family(ruleset: Rules) -> Rules:
    """The ruleset a deal's variant was derived from (itself when it is none): hands of
    one family have the same categories and compare by strength (see ``evaluator.deal``)."""
    return ruleset.variant_of if ruleset.variant_of is not None else ruleset


def refuse_dealt(ruleset: Rules, what: str) -> None:
    """G122 when ``ruleset``'s outcome depends on the deal, which ``what`` is not given."""
    if ruleset.by_deal:
        raise error(
            GameError,
            "G122",
            f"{ruleset.name}'s {what} depends on how the cards were dealt (wild cards, extra cards or pot "
            "halves decided by the deal, declare, or run it twice)",
            "<showdown>",
            hint="give the deal in dealing order to evaluator.deal (Ruleset.showdown and `pokerrules showdown` do)",
        )


def hand_matches(pattern_matcher: Any, hand: Hand) -> bool:
    """Whether ``hand`` (its category and ranks as classified) matches a compiled pattern, as ``beats:`` rules ask."""
    classification = hand.fill.classification
    view = replace(classification.hand_class, category=classification.category.strength)
    return pattern_matcher(view, {}) is not None


def beats_exception(ruleset: Rules, first: Hand, second: Hand) -> int:
    """1 / -1 when a ``beats:`` rule decides between the hands, else 0.

    Every rule is looked at in both directions; if rules point both ways (a
    badly written file) they cancel and the value decides, so that
    ``compare(a, b) == -compare(b, a)`` always holds.
    """
    first_wins = second_wins = False
    for beat in ruleset.beats:
        first_wins = first_wins or (
            hand_matches(beat.winner.matcher, first) and hand_matches(beat.loser.matcher, second)
        )
        second_wins = second_wins or (
            hand_matches(beat.winner.matcher, second) and hand_matches(beat.loser.matcher, first)
        )
    return int(first_wins) - int(second_wins)


def compare(ruleset: Rules, a: CardsLike | Hand, b: CardsLike | Hand) -> int:
    """1 when ``a`` wins, -1 when ``b`` wins, 0 for a tie (see module docstring).

    A hand that qualifies beats one that does not; two hands that do not
    qualify tie (neither can win).
    """
    first, second = _hand(ruleset, a), _hand(ruleset, b)
    if first.qualifies != second.qualifies:
        return 1 if first.qualifies else -1
    if not first.qualifies:
        return 0
    decided = beats_exception(ruleset, first, second) if ruleset.beats else 0
    if decided:
        return decided
    if first.strength == second.strength:
        return 0
    return 1 if first.strength > second.strength else -1


def top_cycle(ruleset: Rules, hands: Sequence[Hand | None]) -> list[int]:
    """Indices of the winners among ``hands`` (ties and cycles share).

    ``None`` (no hand could be made) and hands that do not qualify never win;
    when none is left there is no winner. The hands that beat or tie every
    other hand win. When there is none (a cycle), the winners are the hands
    from which every hand can be reached by a chain of "beats or ties": that
    group is the unique smallest one whose members beat or tie every hand
    outside it, and being defined without looking at seat numbers, it does not
    depend on the order the hands are given in.
    """
    alive = [i for i, hand in enumerate(hands) if hand is not None and hand.qualifies]
    if len(alive) <= 1:
        return alive
    at_least = {i: {i} for i in alive}  # i -> the hands i beats or ties
    for i, j in combinations(alive, 2):
        outcome = compare(ruleset, hands[i], hands[j])  # type: ignore[arg-type]
        if outcome >= 0:
            at_least[i].add(j)
        if outcome <= 0:
            at_least[j].add(i)
    unbeaten = [i for i in alive if len(at_least[i]) == len(alive)]
    if unbeaten:
        return unbeaten
    # Every pair is related one way or both, so the components of the
    # "beats or ties" graph form a chain and the top one is reached by nobody
    # outside it: its members are exactly the hands that reach every hand.
    reach = {i: set(at_least[i]) for i in alive}
    changed = True
    while changed:
        changed = False
        for i in alive:
            grown = set().union(*(reach[j] for j in reach[i]))
            if len(grown) > len(reach[i]):
                reach[i] = grown
                changed = True
    return [i for i in alive if len(reach[i]) == len(alive)]


# --- the best hand a player can make ---------------------------------------------------


def playing_subsets(ruleset: Rules, holes: int, boards: int, game: Game | None) -> Iterable[tuple[int, ...]]:
    """Index sets (hole cards first, then the board) that may play under the game's rules."""
    size = ruleset.hand_size
    if game is not None and (game.use_hole is not None or game.use_board is not None):
        use_hole = game.use_hole if game.use_hole is not None else size - (game.use_board or 0)
        use_board = game.use_board if game.use_board is not None else size - use_hole
        if holes < use_hole or boards < use_board:
            return []
        board_indices = range(holes, holes + boards)
        return (h + b for h, b in product(combinations(range(holes), use_hole), combinations(board_indices, use_board)))
    held = holes + boards
    if held <= size:
        return [tuple(range(held))]
    return combinations(range(held), size)


def _best_fill(ruleset: Rules, holding: Sequence[Card], subsets: Iterable[tuple[int, ...]]) -> Fill | None:
    """The best way any of ``subsets`` (indices into ``holding``) plays.

    The same choice as ``Engine.best``, faster: a subset without wild cards is
    classified straight from its class (which the engine memoises; unless patterns
    read suits inside the hand), and only
    the subsets that tie for the best value are turned into full fills (suit
    tie-break, playing order). Wildness is decided on the whole holding.
    """
    engine = engine_for(ruleset)
    size = engine.size
    wild_by_card: dict[Card, bool] = {}
    for card, is_wild in zip(holding, engine.wild_mask(holding), strict=False):
        wild_by_card[card] = wild_by_card.get(card, False) or is_wild
    # a joker that is not wild cannot play: the engine says so for its subsets
    special = [wild_by_card[card] or card.rank is None for card in holding]
    wild = [wild_by_card[card] for card in holding]
    values = [engine.value_of.get(card.rank or "", -1) for card in holding]
    suits = [card.suit for card in holding]
    any_special = any(special)
    # patterns that read suits inside the hand (flush(k), run(k, flush), suits) need the
    # suits of every subset, which the rank class alone does not carry
    by_cards = engine.needs_suits
    best_key: tuple[bool, tuple[int, ...]] | None = None
    leaders: list[tuple[tuple[int, ...], Fill | None]] = []
    for subset in subsets:
        ready: Fill | None = None
        classification: Classification | None
        if by_cards or (any_special and any(special[i] for i in subset)):
            ready = engine.fill([holding[i] for i in subset], [wild[i] for i in subset])
            classification = ready.classification if ready is not None else None
        else:
            ranks = tuple(sorted([values[i] for i in subset], reverse=True))
            first_suit = suits[subset[0]]
            flush = first_suit if len(subset) == size and all(suits[i] == first_suit for i in subset) else None
            classification = engine.classify(ranks, flush)
        if classification is None:
            continue
        key = (classification.qualifies, classification.score)
        if best_key is None or key > best_key:
            best_key, leaders = key, [(subset, ready)]
        elif key == best_key:
            leaders.append((subset, ready))
    best: Fill | None = None
    for subset, ready in leaders:
        fill = ready if ready is not None else engine.fill([holding[i] for i in subset], [wild[i] for i in subset])
        if fill is not None and (best is None or fill.strength > best.strength):
            best = fill
    return best


def _cards(ruleset: Rules, cards: CardsLike, source: str) -> list[Card]:
    if not isinstance(cards, str) and all(isinstance(card, Card) for card in cards):
        return list(cards)  # type: ignore[arg-type]  # already read (and checked) by the caller
    return read_cards(ruleset, cards, source)


def best_hand(ruleset: Rules, hole: CardsLike, board: CardsLike = (), game: Game | None = None) -> Hand | None:
    """A player's best hand from ``hole`` and ``board`` under ``game``'s card-usage
    rules (default: the ruleset's own game; no game: any five of the cards).

    Returns None when no hand can be made (too few cards for the game's rules).
    ``beats:`` exceptions play no part in choosing the five cards.

    >>> from evaluator import load
    >>> best_hand(load("omaha"), "Ah Kh Qh Jh", "2h 3h 4c 8s 9d").category
    'high_card'
    """
    hole_cards = _cards(ruleset, hole, "<hole>")
    board_cards = _cards(ruleset, board, "<board>")
    if ruleset.best_subset:  # badugi: the engine weighs subsets of every size (bigger sets first)
        return engine_for(ruleset).evaluate(hole_cards + board_cards)
    subsets = playing_subsets(ruleset, len(hole_cards), len(board_cards), game or ruleset.game)
    fill = _best_fill(ruleset, hole_cards + board_cards, subsets)
    return Hand.from_fill(ruleset, fill) if fill is not None else None


# --- results ---------------------------------------------------------------------------


@dataclass
class ShowdownResult:
    """Winners overall, each half's result, and each player's share of the pot.

    ``fractions`` are the exact shares (they sum to 1 unless nobody could win);
    ``shares`` are whole chips when a pot was given (empty otherwise), and
    ``carried`` the chips nobody won (only when no hand qualifies anywhere:
    they stay in the pot for the next deal).
    """

    players: list[list[Card]]
    boards: list[list[Card]]
    winners: list[int]
    halves: list[Half]
    fractions: list[Fraction]
    pot: int | None = None
    shares: list[int] = field(default_factory=list)
    carried: int = 0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready data for ``showdown --json``: per player, per half, the pot."""
        players = []
        for seat, cards in enumerate(self.players):
            hands = []
            for half in self.halves:
                hand = half.hands[seat]
                entry: dict[str, Any] = {"half": half.name, "wins": seat in half.winners}
                entry.update(
                    hand.as_dict() if hand is not None else {"category": None, "cards": [], "description": "no hand"}
                )
                hands.append(entry)
            players.append(
                {
                    "seat": seat,
                    "hole": [str(card) for card in cards],
                    "share": str(self.fractions[seat]),
                    "chips": self.shares[seat] if self.shares else None,
                    "hands": hands,
                }
            )
        return {
            "boards": [[str(card) for card in board] for board in self.boards],
            "pot": self.pot,
            "winners": self.winners,
            "shares": self.shares,
            "carried": self.carried,
            "players": players,
            "halves": [
                {
                    "name": half.name,
                    "ruleset": half.ruleset,
                    "board": half.board,
                    "winners": half.winners,
                    "share": str(half.share),
                    "chips": half.chips,
                }
                for half in self.halves
            ],
        }


# --- reading a showdown ----------------------------------------------------------------


def _as_boards(board: CardsLike | Sequence[CardsLike]) -> list[CardsLike]:
    """One board or several: a string or a sequence of single cards is one board."""
    if isinstance(board, str):
        return [board]
    items = list(board)
    if not items:
        return [""]
    if all(isinstance(item, Card) or (isinstance(item, str) and len(item.split()) == 1) for item in items):
        return [items]  # type: ignore[list-item]
    return items  # type: ignore[return-value]


def _read_all(
    ruleset: Rules, players: Sequence[CardsLike], boards: Sequence[CardsLike]
) -> tuple[list[list[Card]], list[list[Card]]]:
    if not players:
        raise error(GameError, "G103", "a showdown needs at least one player", "<showdown>")
    if len(players) > MAX_PLAYERS:
        raise error(GameError, "G103", f"{len(players)} players; at most {MAX_PLAYERS} are seated", "<showdown>")
    holes = [read_cards(ruleset, p, f"<hand {i + 1}>") for i, p in enumerate(players)]
    board_cards = [read_cards(ruleset, b, f"<board {i + 1}>") if b else [] for i, b in enumerate(boards)]
    # Every card, both boards' included, comes out of one deck: no card more
    # often than its packs hold.
    dealt: dict[Card, int] = {}
    for cards in holes + board_cards:
        for card in cards:
            dealt[card] = dealt.get(card, 0) + 1
    for card, count in dealt.items():
        limit = 1 if card.is_joker else ruleset.copies
        if count > limit:
            raise error(GameError, "G104", f"{card} is dealt {count} times, but the deck holds {limit}", "<showdown>")
    # hand.min holds in a showdown as everywhere: too few cards make no hand
    need = ruleset.hand_min
    for i, cards in enumerate(holes):
        for board_index, on_board in enumerate(board_cards or [[]]):
            if len(cards) + len(on_board) < need:
                board_note = (
                    f" and {len(on_board)} on board {board_index + 1}"
                    if len(board_cards) > 1
                    else f" and {len(on_board)} on the board"
                    if on_board
                    else ""
                )
                raise error(
                    CardError,
                    "C104",
                    f"hand {i + 1} has {len(cards)} cards{board_note}; {ruleset.name} needs at least {need}",
                    f"<hand {i + 1}>",
                )
    game = ruleset.game
    if game is not None:
        for i, cards in enumerate(holes):
            if game.hole and len(cards) != game.hole:
                raise error(
                    GameError,
                    "G105",
                    f"hand {i + 1} has {len(cards)} cards; {ruleset.name} deals {game.hole} to each player",
                    f"<hand {i + 1}>",
                )
        wanted_boards = game.boards if game.board else 1
        if len(board_cards) != wanted_boards:
            raise error(
                GameError,
                "G108",
                f"{len(board_cards)} boards given; {ruleset.name} deals {wanted_boards}",
                "<showdown>",
            )
        for i, cards in enumerate(board_cards):
            if len(cards) != game.board:
                dealt_text = f"{game.board} board cards" if game.board else "no board cards"
                raise error(
                    GameError,
                    "G106",
                    f"board {i + 1} has {len(cards)} cards; {ruleset.name} deals {dealt_text}",
                    f"<board {i + 1}>",
                )
    return holes, board_cards


def half_rulesets(ruleset: Rules) -> list[tuple[str, Rules]]:
    """(name, ruleset) of every half: the game's ``split``, or the ruleset alone."""
    game = ruleset.game
    if game is None or not game.split:
        return [("high" if ruleset.direction == "high" else "low", ruleset)]
    from ..rules.build import load_split_half

    if game.card_halves:
        refuse_dealt(ruleset, "pot")
    # a path in a split is relative to the file that names it, and confined, as `extends:` is
    return [
        (split.name, ruleset if split.ruleset is None else load_split_half(ruleset.document, index, split.ruleset))
        for index, split in enumerate(game.split)
    ]


# --- the showdown ----------------------------------------------------------------------


def showdown(
    ruleset: Rules,
    players: Sequence[CardsLike],
    board: CardsLike | Sequence[CardsLike] = "",
    pot: int | None = None,
    decide_half: HalfDecider | None = None,
) -> ShowdownResult:
    """Settle a showdown: winners, each half on each board, and the pot.

    ``players`` are given in seat order from the first seat after the button.
    ``board`` is one board (a card string or a list of cards) or, for
    double-board games, a list of boards. The pot is divided between boards,
    on each board between the halves that have a winner (a half nobody
    qualifies for goes to the other half: high scoops), and in each half
    equally among its winners. With ``pot`` the chips are whole numbers:
    odd chips go to the first board, then the first half (high), then by the
    game's ``odd_chip`` rule. Nothing is lost or created: the shares and
    ``carried`` always sum to the pot.

    ``decide_half`` may settle a half faster (the compiled tables do, see
    :func:`evaluator.compiled.fasthand.showdown`): given the half's ruleset,
    the holes, the board and the game, it returns the players' hands and the
    winners, or None to leave the half to the generic evaluator here.

    Raises:
        PokerRulesError: bad cards, repeated cards, wrong card counts, a
            negative pot.
    """
    if pot is not None and pot < 0:
        raise error(GameError, "G107", "the pot must be a whole number of chips, 0 or more", "<showdown>")
    refuse_dealt(ruleset, "showdown")
    holes, board_cards = _read_all(ruleset, players, _as_boards(board))
    game = ruleset.game
    halves: list[Half] = []
    for board_index, cards_on_board in enumerate(board_cards):
        for name, half_rules in half_rulesets(ruleset):
            label = (
                name
                if len(board_cards) == 1
                else f"board {board_index + 1}" + (f" {name}" if game and game.split else "")
            )
            fast = decide_half(half_rules, holes, cards_on_board, game) if decide_half is not None else None
            if fast is not None:
                halves.append(Half(label, half_rules.name, board_index, fast[0], fast[1]))
                continue
            hands = [best_hand(half_rules, hole, cards_on_board, game) for hole in holes]
            halves.append(Half(label, half_rules.name, board_index, hands, top_cycle(half_rules, hands)))
    fractions = pot_fractions(halves, len(holes), len(board_cards))
    winners = sorted({w for half in halves for w in half.winners})
    result = ShowdownResult(holes, board_cards, winners, halves, fractions, pot)
    if pot is not None:
        result.shares, result.carried = split_pot(ruleset, pot, halves, holes, len(board_cards))
    return result
