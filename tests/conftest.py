from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

from tests.toy_games import registered_toy_games

# Property tests play whole games; give them room and keep them deterministic in CI.
settings.register_profile(
    "chaosgames",
    deadline=None,
    derandomize=True,
    max_examples=20,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("chaosgames")


@pytest.fixture
def toy_games() -> Iterator[None]:
    """The two toy games of tests/toy_games.py are in the registry during the test, and only then."""
    with registered_toy_games():
        yield
