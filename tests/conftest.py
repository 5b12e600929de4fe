from hypothesis import HealthCheck, settings

# Property tests play whole games; give them room and keep them deterministic in CI.
settings.register_profile(
    "chaosgames",
    deadline=None,
    derandomize=True,
    max_examples=20,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.load_profile("chaosgames")
