"""The fork server's heap made ready for forking: its holes filled, its objects immortal.

Before it serves, the fork server fills the holes of its heap (:func:`fill_holes`):
the free blocks its imports and its warm-up left among live objects. A child's
new objects went into them, and each one copied a whole page of the server's
live objects; filled (and never freed), the children's objects go to pages of
their own instead (``benchmarks/ssh_login.py --players 12``: 22.8-23.0 MB PSS per
player before, 21.6-21.7 MB after). What a child still copied was mostly the pages of
the server's objects it only reads: reference counts written and written back (a
diff of a child's copied pages against the server's: a third of them back to their
bytes, another fifth with only counts changed), the bytecode Python specialises in
place. On Python 3.12 and later (PEP 683's immortal objects) the server makes every
object it holds immortal (:func:`immortalize`): a child's references no longer write
to them (13.7 MB PSS per player with 12, on 3.13). Python 3.11 writes every count.
"""

from __future__ import annotations

import ctypes
import gc
import os
import sys
import tempfile
from collections.abc import Sequence

__all__ = ["fill_holes", "immortal_objects", "immortalize"]


def _pymalloc_holes() -> dict[int, int]:
    """pymalloc's free blocks in its used pools, by block size: ``{size: count}`` (from
    ``sys._debugmallocstats``, CPython's, which prints to the C standard error)."""
    debug = getattr(sys, "_debugmallocstats", None)
    if debug is None:
        return {}
    with tempfile.TemporaryFile() as out:
        sys.stderr.flush()
        saved = os.dup(2)
        try:
            os.dup2(out.fileno(), 2)
            debug()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        out.seek(0)
        text = out.read().decode("ascii", "replace")
    holes: dict[int, int] = {}
    for line in text.splitlines():  # class, size, pools, blocks in use, available blocks
        fields = line.split()
        if len(fields) == 5 and all(f.isdigit() for f in fields) and int(fields[4]):
            holes[int(fields[1])] = int(fields[4])
    return holes


class _MallInfo2(ctypes.Structure):
    _fields_ = [
        (name, ctypes.c_size_t)
        for name in (
            "arena",
            "ordblks",
            "smblks",
            "hblks",
            "hblkhd",
            "usmblks",
            "fsmblks",
            "uordblks",
            "fordblks",
            "keepcost",
        )
    ]


_LARGEST_HOLE = 1 << 16  # below glibc's mmap threshold: the heap's, never an mmap
_MAX_PLUGS = 200_000


def _fill_pymalloc() -> int:
    """Allocate (for good) every free block of pymalloc's used pools; the blocks filled."""
    malloc = ctypes.pythonapi.PyObject_Malloc
    malloc.restype = None  # the block is kept: its address is not needed
    malloc.argtypes = [ctypes.c_size_t]
    filled = 0
    for _ in range(2):  # the second time: the holes the first one's own work left
        for size, count in _pymalloc_holes().items():
            plugs = min(count, _MAX_PLUGS - filled)
            for _ in range(plugs):
                malloc(size)
            filled += plugs
    return filled


def _fill_glibc() -> int:
    """Allocate (for good) glibc's free chunks below its top chunk (of the main arena:
    the server is single-threaded), the largest first; the chunks filled."""
    try:
        libc = ctypes.CDLL(None)
        mallinfo2 = libc.mallinfo2  # glibc 2.33 and later
    except (OSError, AttributeError):
        return 0
    mallinfo2.restype = _MallInfo2
    libc.malloc.restype = ctypes.c_void_p
    libc.malloc.argtypes = [ctypes.c_size_t]
    libc.free.argtypes = [ctypes.c_void_p]
    filled = 0
    size = _LARGEST_HOLE
    while size >= 16 and filled < _MAX_PLUGS:
        while filled < _MAX_PLUGS:
            before = mallinfo2()
            block = libc.malloc(size)
            after = mallinfo2()
            if block is None:
                return filled
            if (
                after.keepcost < before.keepcost  # cut from the top chunk: no hole this big
                or after.arena != before.arena  # the heap grew
                or after.hblks != before.hblks  # an mmap
            ):
                libc.free(block)
                break
            filled += 1
        size //= 2
    return filled


def fill_holes() -> tuple[int, int]:
    """Fill the free blocks of this process's heap that lie among its live objects,
    for good: pymalloc's (objects of up to 512 bytes) and glibc's (larger ones, on
    Linux). A forked child's new objects would fill them, each copying a whole page
    of this process's objects; then they take new pages of their own. Returns the
    blocks filled: (pymalloc's, glibc's)."""
    small = _fill_pymalloc()
    large = _fill_glibc() if sys.platform.startswith("linux") else 0
    return small, large


_IMMORTAL = 0xFFFFFFFF
"""The low 32 bits of an immortal object's reference count (PEP 683: CPython 3.12 to
3.14, 64-bit, with the GIL): an increment wraps to 0 and is not stored, a decrement
of a count whose low half is negative as an int32 is not made."""


def immortal_objects() -> bool:
    """Whether this interpreter leaves alone the reference counts :func:`immortalize`
    writes: CPython 3.12 to 3.14 (PEP 683's layout, known), 64-bit, little-endian, with
    the GIL (a free-threaded build counts references otherwise); probed on an object
    of its own, whose count is put back when the probe fails."""
    if sys.implementation.name != "cpython" or not (3, 12) <= sys.version_info[:2] <= (3, 14):
        return False
    import sysconfig

    if sys.byteorder != "little" or sys.maxsize < 1 << 32:
        return False
    if sysconfig.get_config_var("Py_GIL_DISABLED"):
        return False
    probe = [0.5 + len(sys.argv)]  # a float of its own: no cache, no constant holds it
    count = ctypes.c_uint32.from_address(id(probe[0]))
    before = count.value
    count.value = _IMMORTAL
    more = [probe[0] for _ in range(3)]  # three references taken ...
    taken = count.value
    del more  # ... and dropped
    if taken == _IMMORTAL and count.value == _IMMORTAL:
        return True
    count.value = before
    return False


def immortalize(objects: Sequence[object] | None = None) -> int:
    """Make ``objects`` (by default: every object the collector tracks, and the
    objects they refer to directly: strings, numbers, bytes) immortal, for good; the
    objects changed, 0 where :func:`immortal_objects` says no.

    A forked child copied every page on which it only took a reference and dropped it
    again: a reference count written and written back (on Python 3.11, about half of
    the pages a child copies). The server calls this once, after its warm-up's garbage
    is collected and before it forks: a child's references then leave the server's
    objects' pages shared (``benchmarks/ssh_login.py --players 12`` on Python 3.13:
    21.1 MB PSS per player before, 13.7 MB after). An immortal object is never freed:
    what a child drops of the server's stays where it was, shared."""
    if not immortal_objects():
        return 0
    todo = gc.get_objects() if objects is None else list(objects)
    seen: set[int] = set()
    for obj in todo:
        for item in (obj, *gc.get_referents(obj)):
            address = id(item)
            if address not in seen:
                seen.add(address)
                ctypes.c_uint32.from_address(address).value = _IMMORTAL
    return len(seen)
