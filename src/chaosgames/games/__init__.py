"""One subpackage per game; each registers itself with `chaosgames.core.register`."""
