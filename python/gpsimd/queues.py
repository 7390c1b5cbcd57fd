"""Programs on several engine queues (SPEC §8): the result of :meth:`Machine.run_program`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from . import _core

__all__ = ["ProgramRun", "ENGINES"]

#: The queues of a program, in SPEC §8.1's order: the engines' ids ("dve", "pool", "act"),
#: from the engine table of the extension.
ENGINES: tuple[str, ...] = tuple(_core.ENGINES)


@dataclass(frozen=True)
class ProgramRun:
    """How a program of queues ended (SPEC §8.4), with the keys of SPEC §8.8's ``expect``.

    - ``status``: ``'ok'`` (every queue drained), ``'deadlock'`` (no queue ready),
      ``'fault'`` (a word faulted; the words retired before it stay) or ``'invalid'``
      (a word failed validation; nothing ran).
    - ``schedule``: the issued words in order, ``'pool:0'``, ... (a faulting word last);
      ``acquired``: for each, the word whose semaphore update its wait acquired
      (SPEC §8.6), or None.
    - ``race``: None, or the first race: ``{'first': {'queue', 'index', 'access'},
      'second': {...}, 'location': {'space', 'partition', 'offset'}}`` (``offset`` for
      ``sbuf`` and ``psum`` only); ``races_checked`` is False when detection was off.
    - ``sync_hazards``: ``[{'semaphore', 'kind'}]`` (SPEC §8.7).
    - ``blocked``: for a deadlock, each queue's head ``{'queue', 'index', 'wait',
      'semaphore', 'value', 'current'}``, engine order.
    - ``fault``: ``{'queue', 'index', 'kind', 'detail'}`` or None.
    - ``invalid``: ``[{'queue', 'index', 'violations', 'diagnostics'}]``.

    A word of a program text also carries ``source``, its ``file:line``.

    >>> import gpsimd
    >>> r = gpsimd.Machine("v3").run_program({})        # no words: ok at once
    >>> r.ok, r.schedule, r.race
    (True, [], None)
    """

    status: str
    schedule: list[str] = field(default_factory=list)
    acquired: list[str | None] = field(default_factory=list)
    race: dict[str, Any] | None = None
    races_checked: bool = False
    sync_hazards: list[dict[str, Any]] = field(default_factory=list)
    blocked: list[dict[str, Any]] = field(default_factory=list)
    fault: dict[str, Any] | None = None
    invalid: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when every queue drained (a race may still have been found)."""
        return self.status == "ok"
