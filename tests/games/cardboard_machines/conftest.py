"""Local workaround: tests/core/contract.py calls `chaosgames.sample_outcome`, which the
package does not export (it lives in chaosgames.core.chance). Reported to the lead; remove
once the core exports it."""

import chaosgames
from chaosgames.core.chance import sample_outcome

if not hasattr(chaosgames, "sample_outcome"):
    chaosgames.sample_outcome = sample_outcome  # type: ignore[attr-defined]
