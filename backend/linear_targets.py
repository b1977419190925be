"""The linear layers a ``--weights-dtype`` conversion replaces (bf16 in :mod:`backend.weights_dtype`,
int8 / int4 in :mod:`backend.quant.convert`), found once for both."""

from __future__ import annotations

from torch import nn


def bias_free_linears(model: nn.Module, mode: str, error: type[Exception]
                      ) -> list[tuple[str, nn.Module, str, nn.Linear]]:
    """Every ``nn.Linear`` of ``model`` as ``(full name, parent, attribute name, layer)``, for a conversion
    to ``--weights-dtype mode``; raises ``error`` naming the first layer with a bias (none is changed)."""
    targets = [(f"{parent_name}.{name}" if parent_name else name, parent, name, child)
               for parent_name, parent in model.named_modules() for name, child in parent.named_children()
               if isinstance(child, nn.Linear)]
    for full, _, _, child in targets:
        if child.bias is not None:
            raise error(f"{full}: linear layers with a bias are not supported by --weights-dtype {mode}")
    return targets
