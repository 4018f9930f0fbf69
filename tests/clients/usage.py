"""What a portal developer writes against the generated Python client, for
`mypy --strict` (tests/clients/run.sh): a plain `Client`, with no API key,
calls the `/v1` operations of a server that is open, as it may."""

from gamebot_client import Client
from gamebot_client.api.reversi import reversi_legal_moves, reversi_new
from gamebot_client.models import (
    Problem,
    ReversiLegalMovesReply,
    ReversiNewReply,
    ReversiNewRequest,
    ReversiStateRequest,
)


def first_legal_move(base_url: str) -> str:
    """The notation of the first legal move of a new Reversi game."""
    client = Client(base_url=base_url, raise_on_unexpected_status=True)
    new = reversi_new.sync(client=client, body=ReversiNewRequest())
    if not isinstance(new, ReversiNewReply):
        raise RuntimeError(f"no new game: {problem_code(new)}")
    legal = reversi_legal_moves.sync(client=client, body=ReversiStateRequest(state=new.state))
    if not isinstance(legal, ReversiLegalMovesReply):
        raise RuntimeError(f"no legal moves: {problem_code(legal)}")
    return legal.moves[0].notation


def problem_code(answer: Problem | None) -> str:
    """A refusal's machine code, one of the closed list the contract names."""
    return "no answer" if answer is None else str(answer.code)
