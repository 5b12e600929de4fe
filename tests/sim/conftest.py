from collections.abc import Iterator

import pytest

from tests.agents.toy_games import registered_toy_games


@pytest.fixture
def toy_games() -> Iterator[None]:
    """The toy games are in the registry during the test, and only then."""
    with registered_toy_games():
        yield
