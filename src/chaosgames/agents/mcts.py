"""Monte Carlo tree search (UCT) for 2-4 players with chance nodes.

Every node keeps the sum of the returns of the playouts through it, one value per
player (max^n): at a decision node the search picks the child that is best for the
player deciding there. Chance nodes are sampled with their probabilities, so the tree
grows along the outcomes that actually come up, in proportion to how likely they are.
Playouts follow a rollout policy for at most `depth` decisions (0 by default: the new
position itself) and are then scored by the game's heuristic (`Game.heuristic`) where a
player decides, or by the result when the game ends first. A game may advise settings
that suit it (`Game.search_advice`). With `opponents=greedy` the other players are not
searched: each plays as the greedy agent plays, one of its equal-best moves drawn at
random, in the tree and in greedy playouts (an opponent model; see docs/agents.md).

Between moves the tree is kept: the driver reports every action (moves of all players
and chance outcomes) through `observe`, and the next search starts from the matching
subtree. With an iteration budget and a seed, decisions are reproducible; a time budget
depends on the machine's speed.

Every action the search applies comes from the state's own legal actions or chance
outcomes, so it uses the trusted fast path `State.apply_unchecked`.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import Any, ClassVar

from chaosgames.agents.base import LoopGuardedAgent, Progress, check_decision_node, param, parameters
from chaosgames.agents.simple import drawn, greedy_replies, unstick_param
from chaosgames.core import CHANCE, TERMINAL, Action, Game, State
from chaosgames.core.chance import sample_outcome
from chaosgames.core.options import Option

# A playout that has not ended after this many actions is scored by the heuristic even
# with an unlimited rollout depth, so a game that can loop never hangs the search.
PLAYOUT_LIMIT = 10_000
DEFAULT_ITERATIONS = 1000


class _Node:
    """A position in the tree: who acts there, its children by action and the statistics.

    A decision node whose moves have been listed also keeps its children's statistics for
    the selection, child by child in the order of `children`: `kids` (the (action, node)
    pairs), `means` (each child's mean value for this node's player) and `counts` (each
    child's visits). The backup refreshes the entry of each child it passes, so a selection
    reads them instead of recomputing every child's mean at every visit (the means are the
    same divisions of the same sums, so the same floats and the same choices).
    """

    __slots__ = (
        "children",
        "counts",
        "fresh",
        "kids",
        "means",
        "player",
        "replies",
        "untried",
        "value",
        "visits",
    )

    kids: list[tuple[Action, _Node]]
    means: list[float]
    counts: list[int]

    def __init__(self, player: int, num_players: int) -> None:
        self.player = player
        self.children: dict[Action, _Node] = {}
        # Actions not yet expanded (filled on the first visit of a decision node, which
        # also starts kids, means and counts).
        self.untried: list[Action] | None = None
        self.visits = 0
        self.value = [0.0] * num_players
        # Created with a heuristic prior but not yet reached by a playout.
        self.fresh = False
        # A modelled player's node (opponents=greedy): the greedy agent's equal-best moves,
        # one drawn at each visit as the agent draws (filled on the first visit).
        self.replies: list[Action] | None = None

    def list_moves(self) -> None:
        """Start the children's statistics (the first visit of a decision node)."""
        self.kids = []
        self.means = []
        self.counts = []

    def add_child(self, action: Action, child: _Node) -> int:
        """A new child, with its statistics as they stand; its index in `kids`."""
        self.children[action] = child
        self.kids.append((action, child))
        visits = child.visits
        self.means.append(child.value[self.player] / visits if visits else 0.0)
        self.counts.append(visits)
        return len(self.counts) - 1


class MctsAgent(LoopGuardedAgent):
    """UCT with chance nodes, a value per player, a rollout policy and tree reuse."""

    name = "mcts"
    summary = "Monte Carlo tree search (UCT) with chance nodes, heuristic cut-off and tree reuse"
    params: ClassVar[Mapping[str, Option]] = parameters(
        param("iterations", int, 0, "playouts per move (0: no limit; 1000 when time is 0 too)", minimum=0),
        param("time", float, 0.0, "seconds per move (0: no time limit)", minimum=0.0),
        param("c", float, 0.3, "UCT exploration constant", minimum=0.0),
        param(
            "depth",
            int,
            0,
            "decisions a playout makes before the heuristic scores it (0: the heuristic scores the"
            " new position itself; -1: to the end)",
            minimum=-1,
        ),
        param("rollout", str, "random", "playout policy", choices=("random", "greedy")),
        param("epsilon", float, 0.2, "greedy playouts: chance of a random action instead", minimum=0.0),
        param("reuse", bool, True, "keep the subtree of the position reached between moves"),
        param(
            "prior",
            int,
            5,
            "virtual visits scored by the heuristic given to every new move (0: none)",
            minimum=0,
        ),
        param("normalise", bool, True, "rescale a node's child values to their spread before UCB (min-max)"),
        param(
            "opponents",
            str,
            "search",
            "the other players: 'search' (searched, each for his own best) or 'greedy' (played as the greedy"
            " agent plays, in the tree and in greedy playouts)",
            choices=("search", "greedy"),
        ),
        unstick_param("another plausible move"),
    )

    def __init__(self, /, seed: int | None = None, **params: Any) -> None:
        super().__init__(seed, **params)
        self._given = frozenset(params)
        self._active: dict[str, Any] = dict(self.settings)
        """The settings of the current search: the user's, then the game's advice, then the defaults."""
        self._root: _Node | None = None
        self._tracked: State[Any] | None = None
        self.last_iterations = 0
        """Playouts run by the last call of `choose` (for benchmarks and tests)."""

    # -- the agent interface -------------------------------------------------------------

    def reset(self) -> None:
        super().reset()
        self._root = None
        self._tracked = None

    def settings_for(self, game: Game[Any, Any]) -> dict[str, Any]:
        """The settings a search in `game` uses: parameters the user set, then the game's
        `search_advice` for the others, then the defaults."""
        active = dict(self.settings)
        for key, value in game.search_advice.items():
            if key in self.params and key not in self._given:
                active[key] = self.params[key].coerce(value)
        return active

    def choose(self, state: State[Any], progress: Progress | None = None) -> Action:
        legal = check_decision_node(self.name, state)
        self._active = self.settings_for(state.game)
        root = self._reused_root(state)
        if len(legal) == 1:
            self._keep(root, state)
            self.last_iterations = 0
            return legal[0]
        if root is None:
            root = _Node(state.current_player(), state.game.num_players)
        self.last_iterations = self._search(root, state, progress)
        self._keep(root, state)
        if self._active["unstick"]:
            return self._unstuck(root, state, legal)
        return self._best_action(root)

    def observe(self, state: State[Any], action: Action) -> None:
        if self._root is None or self._tracked is None:
            return
        child = self._root.children.get(action)
        if child is None:
            self._root = self._tracked = None
            return
        self._root = child
        self._tracked.apply_action(action)

    # -- tree reuse ------------------------------------------------------------------------

    def _reused_root(self, state: State[Any]) -> _Node | None:
        if not self._active["reuse"] or self._root is None or self._tracked is None:
            return None
        # The kept subtree is used only if it is exactly this position (the driver may
        # have skipped `observe`, or started another game).
        if self._tracked.to_json() != state.to_json():
            return None
        return self._root

    def _keep(self, root: _Node | None, state: State[Any]) -> None:
        if self._active["reuse"] and root is not None:
            self._root, self._tracked = root, state.clone()
        else:
            self._root = self._tracked = None

    # -- the search ------------------------------------------------------------------------

    def _search(self, root: _Node, state: State[Any], progress: Progress | None) -> int:
        budget: int = self._active["iterations"]
        seconds: float = self._active["time"]
        if budget == 0 and seconds == 0.0:
            budget = DEFAULT_ITERATIONS
        start = time.perf_counter()
        deadline = start + seconds if seconds > 0 else math.inf
        done = 0
        while True:
            self._iterate(root, state)
            done += 1
            if budget and done >= budget:
                break
            # A clock read costs far less than a playout: check it every time.
            now = time.perf_counter()
            if now >= deadline:
                break
            if progress is not None and done % 64 == 0:
                spent = max(done / budget if budget else 0.0, (now - start) / seconds if seconds else 0.0)
                progress(min(spent, 1.0))
        if progress is not None:
            progress(1.0)
        return done

    def _iterate(self, root: _Node, root_state: State[Any]) -> None:
        rng = self.rng
        num_players = root_state.game.num_players
        exploration: float = self._active["c"]
        prior: int = self._active["prior"]
        select = _select_kept_normalised if self._active["normalise"] else _select_kept
        # With opponents=greedy only the player at the root (the searcher) is searched.
        modelled = self._active["opponents"] == "greedy"
        searcher = root.player
        state = root_state.clone()
        node = root
        path = [node]
        # Each decision on the way down as (node, index of the child taken, child): the
        # backup refreshes that child's entry in the node's statistics.
        taken: list[tuple[_Node, int, _Node]] = []
        expanded = False
        while not expanded:
            player = node.player
            if player == TERMINAL:
                break
            if player == CHANCE or (modelled and player != searcher):
                if player == CHANCE:
                    action = sample_outcome(state.chance_outcomes(), rng)
                else:
                    # The greedy agent's move: one of its equal-best, drawn as it draws
                    # them, so the node is a chance node over those moves, not a choice.
                    replies = node.replies
                    if replies is None:
                        replies = node.replies = greedy_replies(state, state.legal_actions(), player, rng)
                    action = drawn(replies, rng)
                state.apply_unchecked(action)
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = _Node(state.current_player(), num_players)
                    expanded = True
            else:
                untried = node.untried
                if untried is None:
                    node.list_moves()
                    if prior:
                        untried = node.untried = []
                        _expand_with_prior(node, state, prior, num_players, rng)
                    else:
                        untried = node.untried = state.legal_actions()
                if untried:
                    # Expand an untried action drawn at random (swap-remove keeps it O(1)).
                    index = rng.randrange(len(untried))
                    action = untried[index]
                    untried[index] = untried[-1]
                    untried.pop()
                    state.apply_unchecked(action)
                    child = _Node(state.current_player(), num_players)
                    taken.append((node, node.add_child(action, child), child))
                    expanded = True
                else:
                    index = select(node, exploration)
                    action, child = node.kids[index]
                    taken.append((node, index, child))
                    state.apply_unchecked(action)
                    if child.fresh:
                        child.fresh = False
                        expanded = True
            node = child
            path.append(node)
        values = state.returns() if node.player == TERMINAL else self._rollout(state)
        _add_to_all(path, values)
        for parent, index, child in taken:
            visits = child.visits
            parent.means[index] = child.value[parent.player] / visits
            parent.counts[index] = visits

    def _rollout(self, state: State[Any]) -> list[float]:
        """Play on for `depth` decisions (chance outcomes sampled on the way, not counted),
        then score: the result if the game ended, else the heuristic at a position where a
        player decides (never before a pending roll, whose worth it cannot see)."""
        rng = self.rng
        depth: int = self._active["depth"]
        if depth == 0:  # the default: the new position itself, past any pending chance
            return _sampled_verdict(state, rng)
        greedy = self._active["rollout"] == "greedy"
        # Modelled as the greedy agent, the others play its moves, drawn among equals as it
        # draws; so does the searcher (its playouts are the game it would see if it played
        # greedy from here).
        modelled = self._active["opponents"] == "greedy"
        epsilon: float = self._active["epsilon"]

        def choose(state: State[Any], legal: list[Action], player: int) -> Action:
            if greedy and len(legal) > 1 and rng.random() >= epsilon:
                if modelled:
                    return drawn(greedy_replies(state, legal, player, rng), rng)
                return _greedy_action(state, legal, player)
            return legal[rng.randrange(len(legal))]

        play_on(state, depth, rng, choose)
        if state.is_terminal():
            return state.returns()
        return state.game.heuristic(state)

    def _unstuck(self, root: _Node, state: State[Any], legal: list[Action]) -> Action:
        """The best action, unless the game is going round in circles (see `LoopGuard`):
        then the plausible move (at least a quarter of the best one's visits) played
        least often in this situation, the most visited of those first; once every plausible
        move has been tried there, any move, the same way."""
        best = self._best_action(root)

        def ranked() -> list[Action]:
            # Most visited first (stable: ties keep their order); moves never expanded last.
            moves = list(root.children)
            moves.sort(key=lambda a: -root.children[a].visits)
            return moves + [a for a in legal if a not in root.children]

        def plausible() -> list[Action]:
            most = root.children[best].visits
            return [a for a in ranked() if a in root.children and 4 * root.children[a].visits >= most]

        return self._loops.choose(state, legal, best, plausible, ranked)

    def _best_action(self, root: _Node) -> Action:
        """The most visited child (ties: the better mean for the mover, then the first)."""
        player = root.player
        best_action: Action = None
        best_key = (-1, -math.inf)
        for action, child in root.children.items():
            mean = child.value[player] / child.visits if child.visits else -math.inf
            key = (child.visits, mean)
            if key > best_key:
                best_action, best_key = action, key
        return best_action


def play_on(
    state: State[Any],
    depth: int,
    dice: random.Random,
    choose: Callable[[State[Any], list[Action], int], Action],
) -> None:
    """Play on for `depth` decisions (-1: to the end, within `PLAYOUT_LIMIT` actions), each
    `choose(state, legal, mover)`, chance outcomes drawn from `dice` and not counted; stops
    at the next decision after them or at the end of the game."""
    limit = PLAYOUT_LIMIT if depth < 0 else depth
    decisions = 0
    for _ in range(PLAYOUT_LIMIT):
        mover = state.current_player()
        if mover == TERMINAL:
            return
        if mover == CHANCE:
            action = sample_outcome(state.chance_outcomes(), dice)
        elif decisions == limit:
            return
        else:
            decisions += 1
            action = choose(state, state.legal_actions(), mover)
        state.apply_unchecked(action)  # the state's own legal actions and chance outcomes


def _add_to_all(path: list[_Node], values: list[float]) -> None:
    """The backup: a visit and the playout's values added to every node of the path.

    Written out for two, three and four players (a loop over the players cost about a
    third more, at every node of every iteration); the same additions in the same order.
    """
    if len(values) == 4:
        first, second, third, fourth = values
        for visited in path:
            visited.visits += 1
            total = visited.value
            total[0] += first
            total[1] += second
            total[2] += third
            total[3] += fourth
    elif len(values) == 2:
        first, second = values
        for visited in path:
            visited.visits += 1
            total = visited.value
            total[0] += first
            total[1] += second
    elif len(values) == 3:
        first, second, third = values
        for visited in path:
            visited.visits += 1
            total = visited.value
            total[0] += first
            total[1] += second
            total[2] += third
    else:
        for visited in path:
            visited.visits += 1
            total = visited.value
            for i, value in enumerate(values):
                total[i] += value


def _select_kept(node: _Node, exploration: float) -> int:
    """UCB1 for the deciding player over the children of a fully expanded node, from the
    node's kept statistics: the index of the child with the highest mean plus
    exploration * sqrt(ln N / n), the first on ties (as the formula over the children
    themselves in tests/agents/test_agents.py picks).

    Every child has been through a backup (or holds its prior) by the time its node is
    fully expanded, so none is unvisited here.
    """
    counts = node.counts
    log_visits = math.log(node.visits) if node.visits > 0 else 0.0
    sqrt = math.sqrt
    best = 0
    best_score = -math.inf
    for index, mean in enumerate(node.means):
        score = mean + exploration * sqrt(log_visits / counts[index])
        if score > best_score:
            best_score = score
            best = index
    return best


def _select_kept_normalised(node: _Node, exploration: float) -> int:
    """UCB1 on the children's means rescaled to [0, 1] between the worst and the best, from
    the node's kept statistics: the index of the child picked.

    A win share far from 1/2 moves little: a player far behind sees every move at about
    0.001, and plain UCB then explores them uniformly. Rescaling (as MuZero does with its
    values) keeps the differences between the moves, whatever the stakes.

    The hottest loop of the search. The children's means are kept by the backup (see
    `_Node`), so a visit reads them: their range by plain comparisons (fewer steps than
    min() and max() for a few children), then one pass scores them (the same arithmetic
    as the formula written out, so the same choice). No child is unvisited here (see
    `_select_kept`).
    """
    means = node.means
    if len(means) == 1:  # a forced move (one die left to resolve ...): nothing to weigh
        return 0
    low = high = means[0]
    for mean in means:
        if mean < low:
            low = mean
        elif mean > high:
            high = mean
    scale = 1.0 / (high - low) if high - low > 1e-12 else 0.0
    log_visits = math.log(node.visits) if node.visits > 0 else 0.0
    counts = node.counts
    sqrt = math.sqrt
    best = 0
    best_score = -math.inf
    for index, mean in enumerate(means):
        score = (mean - low) * scale + exploration * sqrt(log_visits / counts[index])
        if score > best_score:
            best_score = score
            best = index
    return best


def _expand_with_prior(
    node: _Node, state: State[Any], prior: int, num_players: int, rng: random.Random
) -> None:
    """Create every child at once, each holding `prior` visits of the heuristic's verdict.

    With many moves per decision and a heuristic that separates them by a few hundredths,
    plain UCT spends its budget sampling them nearly uniformly; the prior makes the search
    start from the moves the heuristic likes (progressive bias) and correct it with playouts.
    """
    # The hot loop of a search whose moves are many (a cruiser's paths): _verdict's
    # common case (a player decides after the move) and add_child written out.
    heuristic = state.game.heuristic
    player = node.player
    children, kids, means, counts = node.children, node.kids, node.means, node.counts
    for action in state.legal_actions():
        child_state = state.clone()
        child_state.apply_unchecked(action)
        mover = child_state.current_player()
        child = _Node(mover, num_players)
        # Through pending chance, _verdict may play the copy on: it is a throwaway.
        verdict = heuristic(child_state) if mover >= 0 else _verdict(child_state, rng)
        child.visits = prior
        value = child.value = [prior * v for v in verdict]
        child.fresh = True
        children[action] = child
        kids.append((action, child))
        means.append(value[player] / prior)
        counts.append(prior)


EXACT_CHANCE = 8
"""A pending chance node with at most this many outcomes is averaged exactly in a verdict."""


def _verdict(state: State[Any], rng: random.Random) -> list[float]:
    """The heuristic's verdict on a position, looking through pending chance: the expected
    verdict over its outcomes (when few, at the first chance node) or a sampled one. A
    verdict taken before a roll would miss what the roll is worth (a risky die and a safe
    one look alike until thrown). May play `state` on through chance."""
    if state.is_terminal():
        return state.returns()
    if state.current_player() != CHANCE:
        return state.game.heuristic(state)
    outcomes = state.chance_outcomes()
    if len(outcomes) > EXACT_CHANCE:
        state.apply_unchecked(sample_outcome(outcomes, rng))
        return _sampled_verdict(state, rng)
    total = [0.0] * state.game.num_players
    for outcome, probability in outcomes:
        after = state.clone()
        after.apply_unchecked(outcome)
        for i, v in enumerate(_sampled_verdict(after, rng)):
            total[i] += probability * v
    return total


def _sampled_verdict(state: State[Any], rng: random.Random) -> list[float]:
    """`_verdict` past its first chance node: later chance outcomes drawn at random until a
    player decides or the game ends (a loop, not a call per outcome). Plays `state` on."""
    heuristic = state.game.heuristic
    while True:
        player = state.current_player()
        if player >= 0:
            return heuristic(state)
        if player == TERMINAL:
            return state.returns()
        state.apply_unchecked(sample_outcome(state.chance_outcomes(), rng))


def _greedy_action(state: State[Any], legal: list[Action], player: int) -> Action:
    """The action after which the heuristic rates the mover highest (playout policy)."""
    heuristic = state.game.heuristic
    best = legal[0]
    best_value = -math.inf
    for action in legal:
        child = state.clone()
        child.apply_unchecked(action)
        value = child.returns()[player] if child.is_terminal() else heuristic(child)[player]
        if value > best_value:
            best, best_value = action, value
    return best
