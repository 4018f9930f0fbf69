"""Plays every game through the Python client generated from openapi.yaml.

    python roundtrip.py BASE_URL [PACKAGE]

PACKAGE (default `gamebot_client`) must be importable. The games come from
`GET /v1/games`; each game's operations are the generated functions named
after its id (`reversi_new`, `reversi_bot_move`, ...) and its types the
generated models (`ReversiState`, `ReversiMove`, `ReversiOutcome`), looked
up by name, so a new game in the contract is covered without editing this
file. For each game: a new game, its legal moves, one move played, the bot's
move at numbered level 1 with a seed (as the integer 1 and the string "1",
which must agree), the bot's move under a clock (read back from
`search.clock`, as docs/LIVE-PLAY.md does it), the moves replayed as a list and as the record, and a
game played to its end (the first legal move each time, from a new game
with a short `ply_limit` where the game takes one) so that the finished
outcome's `termination` and `score` are read too. Every reply must
parse into the game's own types, give back exactly the JSON the server sent
(`to_dict()`), and leave nothing in `additional_properties` (a field
the schema does not name), except in maps and in `search`, whose schema is
open to a level's notes.
Then one error: an illegal Reversi move is 422 with a problem document that
has `code` and `pointer`.

Ends with the line `N passed, M failed`; exits 1 if anything failed.
"""

import importlib
import json
import sys
import traceback
from http import HTTPStatus

MAX_PLIES = 1_000
"""How long a game played to its end may last before the check gives up."""

SHORT_PLY_LIMIT = 60
"""The ply limit of the game played to its end, for a game that takes one."""

OPEN_MODELS = {"Search"}
"""Models whose schema says `additionalProperties: true`: `search` carries a
level's notes (`rank_played`, `temperature`) beside its named fields."""


class Check:
    """Counts named checks and prints each one's result."""

    def __init__(self):
        self.passed = 0
        self.failed = 0

    def run(self, name, body):
        try:
            detail = body()
        except Exception as error:  # noqa: BLE001 - any failure is reported
            self.failed += 1
            print(f"FAIL {name}: {type(error).__name__}: {error}")
            traceback.print_exc(limit=3, file=sys.stdout)
            return
        self.passed += 1
        print(f"ok   {name}" + (f": {detail}" if detail else ""))


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


def type_name(game_id):
    """The prefix of a game's schema names, as the contract writes it."""
    return game_id[:1].upper() + game_id[1:]


class Game:
    """One game's generated operations and models, found by name."""

    def __init__(self, package, game_id):
        self.id = game_id
        self.package = package
        self.models = importlib.import_module(f"{package}.models")
        self.prefix = type_name(game_id)

    def operation(self, suffix):
        module = f"{self.package}.api.{self.id}.{self.id}_{suffix}"
        return importlib.import_module(module)

    def model(self, suffix):
        name = self.prefix + suffix
        found = getattr(self.models, name, None)
        expect(found is not None, f"the generated client has no model {name}")
        return found

    def call(self, suffix, client, body, reply_suffix):
        """Calls the game's operation and checks the reply's type and fields."""
        response = self.operation(suffix.replace("-", "_")).sync_detailed(client=client, body=body)
        expect(
            response.status_code == HTTPStatus.OK,
            f"{self.id}_{suffix}: status {response.status_code}: {response.content[:300]!r}",
        )
        reply = response.parsed
        reply_type = self.model(reply_suffix)
        expect(
            isinstance(reply, reply_type),
            f"{self.id}_{suffix}: parsed a {type(reply).__name__}, not a {reply_type.__name__}",
        )
        same_json(reply, response.content, f"{self.id}_{suffix}")
        no_unexpected_fields(reply, f"{self.id}_{suffix}")
        return reply

    def expect_typed(self, value, suffix, where):
        wanted = self.model(suffix)
        expect(
            isinstance(value, wanted),
            f"{where} is a {type(value).__name__}, not a {wanted.__name__}",
        )


def same_json(reply, content, where):
    """The model gives back the JSON the server sent, nothing lost or added."""
    sent = json.loads(content)
    back = reply.to_dict()
    expect(
        back == sent,
        f"{where}: to_dict() differs from the answer\n  sent: {json.dumps(sent)[:400]}\n  back: {json.dumps(back)[:400]}",
    )


def no_unexpected_fields(value, where):
    """No model met a field its schema does not name."""
    if isinstance(value, (list, tuple)):
        for index, item in enumerate(value):
            no_unexpected_fields(item, f"{where}[{index}]")
        return
    extra = getattr(value, "additional_properties", None)
    if not isinstance(extra, dict):
        return
    named = [f.name for f in type(value).__attrs_attrs__ if f.name != "additional_properties"]
    # A model with no named fields is a map (`mean_scores`): its keys are its content.
    open_model = type(value).__name__ in OPEN_MODELS
    expect(
        not (named and extra) or open_model,
        f"{where}: {type(value).__name__} got fields its schema does not name: {sorted(extra)}",
    )
    for name in named:
        no_unexpected_fields(getattr(value, name), f"{where}.{name}")


def play_one_game(check, client, package, game_id, option_names):
    game = Game(package, game_id)
    models = game.models
    found = {}

    def new_game():
        reply = game.call("new", client, game.model("NewRequest")(), "NewReply")
        game.expect_typed(reply.state, "State", "new: state")
        found["start"] = reply.state

    def legal_moves():
        reply = game.call(
            "legal-moves",
            client,
            game.model("StateRequest")(state=found["start"]),
            "LegalMovesReply",
        )
        expect(
            reply.count == len(reply.moves) > 0, f"count {reply.count}, {len(reply.moves)} moves"
        )
        for move in reply.moves:
            game.expect_typed(move, "Move", "legal-moves: a move")
        game.expect_typed(reply.outcome, "Outcome", "legal-moves: outcome")
        expect(
            reply.outcome.status == models.OutcomeStatus.ONGOING, f"status {reply.outcome.status}"
        )
        found["moves"] = reply.moves
        return f"{reply.count} moves"

    def play():
        first = found["moves"][0]
        reply = game.call(
            "play", client, game.model("PlayRequest")(state=found["start"], move=first), "PlayReply"
        )
        game.expect_typed(reply.move, "Move", "play: move")
        game.expect_typed(reply.state, "State", "play: state")
        game.expect_typed(reply.outcome, "Outcome", "play: outcome")
        expect(
            reply.move.notation == first.notation,
            f"played {reply.move.notation}, not {first.notation}",
        )
        by_notation = game.call(
            "play",
            client,
            game.model("PlayRequest")(state=found["start"], move=first.notation),
            "PlayReply",
        )
        expect(by_notation.state == reply.state, "the move as notation gives another state")
        found["played"] = reply
        return first.notation

    def bot_move():
        request = game.model("BotMoveRequest")
        after = found["played"].state
        as_integer = game.call(
            "bot-move", client, request(state=after, level=1, seed=1), "BotMoveReply"
        )
        as_string = game.call(
            "bot-move", client, request(state=after, level="1", seed=1), "BotMoveReply"
        )
        game.expect_typed(as_integer.move, "Move", "bot-move: move")
        game.expect_typed(as_integer.state, "State", "bot-move: state")
        game.expect_typed(as_integer.outcome, "Outcome", "bot-move: outcome")
        expect(isinstance(as_integer.search, models.Search), "bot-move: search is a Search")
        expect(
            isinstance(as_integer.search.stopped_by, models.StopReason),
            "search.stopped_by is a StopReason",
        )
        expect(
            as_integer.move == as_string.move,
            f'level 1 and "1" with seed 1 chose {as_integer.move.notation} and {as_string.move.notation}',
        )
        found["bot"] = as_integer
        notes = sorted(as_integer.search.additional_properties)
        return f"{as_integer.move.notation} (search notes: {', '.join(notes) or 'none'})"

    def clocked_bot_move():
        # As docs/LIVE-PLAY.md drives a live game: the clock as a dict
        # through the request's from_dict, read back from search.clock.
        body = {
            "state": found["played"].state.to_dict(),
            "clock": {"remaining_ms": 3000, "increment_ms": 200, "overhead_ms": 50},
        }
        request = game.model("BotMoveRequest").from_dict(body)
        reply = game.call("bot-move", client, request, "BotMoveReply")
        clock = reply.search.clock
        fields = {name: getattr(clock, name) for name in ("planned_ms", "cap_ms", "used_ms", "left_ms")}
        expect(all(isinstance(v, int) for v in fields.values()), f"search.clock {fields}")
        expect(fields["planned_ms"] <= fields["cap_ms"] < 3000, f"search.clock {fields}")
        expect(
            fields["left_ms"] == 3000 + 200 - 50 - fields["used_ms"],
            f"left_ms is not remaining + increment - overhead - used: {fields}",
        )
        return f"{reply.move.notation}, {fields}"

    def replay():
        played = [found["played"].move, found["bot"].move]
        request = game.model("ReplayRequest")
        reply = game.call("replay", client, request(moves=played, states=True), "ReplayReply")
        game.expect_typed(reply.state, "State", "replay: state")
        game.expect_typed(reply.outcome, "Outcome", "replay: outcome")
        expect(reply.state == found["bot"].state, "replay ends elsewhere than the moves played")
        expect(len(reply.states) == 3, f"{len(reply.states)} states, not the start and 2")
        for state in reply.states:
            game.expect_typed(state, "State", "replay: states")
        expect([m.notation for m in reply.moves] == [m.notation for m in played], "replay's moves")
        from_record = game.call("replay", client, request(record=reply.record), "ReplayReply")
        expect(from_record.state == reply.state, f"record {reply.record!r} replays elsewhere")
        return f"record {reply.record!r}"

    def to_the_end():
        state = found["start"]
        if "ply_limit" in option_names:
            # A game that need not end by itself (Halma) ends at its ply limit.
            options = game.model("NewOptions").from_dict({"ply_limit": SHORT_PLY_LIMIT})
            request = game.model("NewRequest")(options=options)
            state = game.call("new", client, request, "NewReply").state
        for ply in range(MAX_PLIES):
            legal = game.call(
                "legal-moves", client, game.model("StateRequest")(state=state), "LegalMovesReply"
            )
            outcome = legal.outcome
            if outcome.status != models.OutcomeStatus.ONGOING:
                game.expect_typed(
                    outcome.termination, "Termination", "a finished game's termination"
                )
                score = outcome.score
                game.expect_typed(score, "OutcomeScore", "a finished game's score")
                expect(all(isinstance(v, int) for v in score.to_dict().values()), f"score {score}")
                return f"{outcome.status.value} after {ply} plies: {outcome.termination.value}, {score.to_dict()}"
            request = game.model("PlayRequest")(state=state, move=legal.moves[0])
            state = game.call("play", client, request, "PlayReply").state
        raise AssertionError(f"not over after {MAX_PLIES} plies of first moves")

    steps = [
        ("new", new_game),
        ("legal-moves", legal_moves),
        ("play", play),
        ("bot-move", bot_move),
        ("clocked bot-move", clocked_bot_move),
        ("replay", replay),
        ("played to the end", to_the_end),
    ]
    for name, step in steps:
        before = check.failed
        check.run(f"{game_id} {name}", step)
        if check.failed > before:
            print(f"     ({game_id}: the steps after {name} need its result: not run)")
            break


def illegal_move(client, package):
    """An illegal Reversi move (a1 at the start) is a 422 problem document."""
    game = Game(package, "reversi")
    start = game.call("new", client, game.model("NewRequest")(), "NewReply").state
    request = game.model("PlayRequest")(state=start, move="a1")
    response = game.operation("play").sync_detailed(client=client, body=request)
    expect(
        response.status_code == HTTPStatus.UNPROCESSABLE_ENTITY, f"status {response.status_code}"
    )
    problem = response.parsed
    expect(
        isinstance(problem, game.models.Problem),
        f"parsed a {type(problem).__name__}, not a Problem",
    )
    no_unexpected_fields(problem, "the problem")
    expect(problem.code == "illegal_move", f"code {problem.code}")
    expect(problem.pointer == "/move", f"pointer {problem.pointer}")
    return f"{problem.code} at {problem.pointer}: {problem.detail}"


def placement(client, package):
    """A player placed on Reversi's ladder through the generated models."""
    models = importlib.import_module(f"{package}.models")
    operation = importlib.import_module(f"{package}.api.any_game.placement")
    played = models.PlayedGame(level=3, result=models.GameResult.WIN, date="2026-11-20")
    lost = models.PlayedGame(level=5, result=models.GameResult.LOSS)
    request = models.PlacementRequest(results=[played, lost], target=0.6)
    reply = operation.sync(game="reversi", client=client, body=request)
    expect(isinstance(reply, models.Placement), f"parsed a {type(reply).__name__}")
    no_unexpected_fields(reply, "placement")
    low, high = reply.interval
    expect(low < reply.rating < high, f"rating {reply.rating} outside {reply.interval}")
    expect(reply.recommended.target == 0.6, f"target {reply.recommended.target}")
    expect(len(reply.levels) == 12, f"{len(reply.levels)} levels")
    return f"rating {reply.rating}, play level {reply.recommended.level} next"


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    base_url = sys.argv[1]
    package = sys.argv[2] if len(sys.argv) == 3 else "gamebot_client"
    client_module = importlib.import_module(f"{package}.client")
    list_games = importlib.import_module(f"{package}.api.any_game.list_games")
    client = client_module.Client(base_url=base_url, raise_on_unexpected_status=True, timeout=60.0)
    check = Check()
    ids = []
    options = {}

    def games():
        listing = list_games.sync(client=client)
        ids.extend(game.id for game in listing.games)
        options.update((game.id, {o.name for o in game.new_options}) for game in listing.games)
        expect(ids, "no games listed")
        no_unexpected_fields(listing, "GET /v1/games")
        return ", ".join(ids)

    check.run("GET /v1/games", games)
    for game_id in ids:
        play_one_game(check, client, package, game_id, options[game_id])
    check.run("illegal move is 422 with code and pointer", lambda: illegal_move(client, package))
    check.run("placement on Reversi's ladder", lambda: placement(client, package))
    print(f"{check.passed} passed, {check.failed} failed")
    sys.exit(1 if check.failed else 0)


if __name__ == "__main__":
    main()
