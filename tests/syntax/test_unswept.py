"""A load pauses the cycle collector (load.unswept); what it leaves in cycles is swept by the collections after,
young ones included, so a process reading ruleset after ruleset (the suite, the language server) does not grow."""

import gc
import weakref

from interpreter.load import unswept


class _Node:
    pass


def test_garbage_a_load_leaves_in_cycles_is_swept_by_a_young_collection():
    with unswept():
        a, b = _Node(), _Node()
        a.other, b.other = b, a  # a cycle, garbage once the load is done
        gone = weakref.ref(a)
        del a, b
    assert gc.isenabled()
    gc.collect(1)  # not a full collection: what the load made must not have been moved past the young generations
    assert gone() is None
