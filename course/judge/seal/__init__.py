"""The judge's own objects in the submission's process, and whether a submission rebound any of them (a package,
so that the judge's folder stays within its size; ``code.py`` holds torch's machine code still where the kernel counts
native calls).

Everything of the judge's in the worker is reachable from a cell (``sys.modules``, a function's closure, ``gc``).
``take`` notes, before any cell runs, every binding a submission could change to make the judge judge less: the
globals of the judge's modules in the worker and of the probe modules, their classes' attributes, their functions'
code, defaults and closure cells that hold functions or classes, the wrappers the judge put into PyTorch and the
standard library, the builtins the judge calls, and the judge's instances (their class; no instance attribute
standing in for a method). ``changed`` names every difference and puts the judge's binding back. The worker
(``Worker.serve``) compares after every request: a request in which one changed fails, and so does every later one.

What this cannot see (docs/security.md, "Lead, 2026-12-05 (the judge's objects)"): the judge's objects used as they
are, not rebound (PyTorch's RecordFunction switch the judge keeps, called directly; the protocol's descriptors written
to), and counters changed in value. Both need code written against this repository's internals, which the
submission's own cells hold for an instructor to read."""
from __future__ import annotations

import builtins
import types

_MISSING = object()
_DICT, _CLASS, _ATTR, _CELL, _INSTANCE, _NEW = range(6)
_FUNCTION_ATTRS = ("__code__", "__defaults__", "__kwdefaults__")


def _held(value) -> bool:
    """A closure cell's content worth holding still: code, not data (a counter in a cell may change)."""
    return isinstance(value, (types.FunctionType, types.BuiltinFunctionType, type, types.MethodType,
                              staticmethod, classmethod, property))


def _function_entries(fn, entries: list, seen: set) -> None:
    if id(fn) in seen:
        return
    seen.add(id(fn))
    for attr in _FUNCTION_ATTRS:  # defaults only where it has some (the judge never leaves an argument out else)
        if attr == "__code__" or getattr(fn, attr) is not None:
            entries.append((_ATTR, fn, attr, getattr(fn, attr)))
    for cell in fn.__closure__ or ():
        try:
            value = cell.cell_contents
        except ValueError:
            continue
        if _held(value):
            entries.append((_CELL, cell, None, value))
            _walk(value, entries, seen, None)
    for value in fn.__defaults__ or ():
        if _held(value):
            _walk(value, entries, seen, None)


def _walk(value, entries: list, seen: set, owners: set[str] | None) -> None:
    """Entries for what ``value`` holds: a function's code and closure, a class's attributes (only a class or
    function of one of ``owners``' modules when owners is given)."""
    if isinstance(value, (staticmethod, classmethod)):
        value = value.__func__
    if isinstance(value, property):
        for f in (value.fget, value.fset, value.fdel):
            if f is not None:
                _walk(f, entries, seen, owners)
        return
    if isinstance(value, types.FunctionType):
        if owners is None or value.__module__ in owners:
            _function_entries(value, entries, seen)
    elif isinstance(value, type) and (owners is None or value.__module__ in owners) and id(value) not in seen:
        seen.add(id(value))
        for key, attr in list(vars(value).items()):
            if key not in ("__dict__", "__weakref__"):
                entries.append((_CLASS, value, key, attr))
                _walk(attr, entries, seen, None)


def take(modules, instances=(), installed=(), with_builtins: bool = True) -> tuple:
    """The judge's bindings now: ``modules`` (theirs and their classes' and functions'), ``instances`` of the
    judge's classes, ``installed``: (owner, name, wrapper) the judge set on others' objects, and the builtins."""
    entries: list = []
    seen: set = set()
    owners = {m.__name__ for m in modules}
    for mod in modules:
        d = vars(mod)
        entries.append((_NEW, d, None, frozenset(d)))
        for key, value in list(d.items()):
            entries.append((_DICT, d, key, value))
            _walk(value, entries, seen, owners)
    for owner, name, wrapper in installed:
        if isinstance(owner, type):  # held in the class's own dict (a classmethod read off the class is a new object)
            entries.append((_CLASS, owner, name, vars(owner).get(name, _MISSING)))
        else:
            entries.append((_ATTR, owner, name, wrapper))
        _walk(wrapper, entries, seen, None)
    for inst in instances:
        entries.append((_INSTANCE, inst, None, type(inst)))
    b = vars(builtins) if with_builtins else {}
    for key, value in list(b.items()):
        if isinstance(value, (types.BuiltinFunctionType, type)):
            entries.append((_DICT, b, key, value))
    return _fast(entries), tuple(entries)


def _fast(entries) -> tuple:
    """The same comparison as C calls: ``operator.itemgetter`` over each dict, ``attrgetter`` of one name over all
    the objects that hold it (a few hundred bindings in tens of microseconds; a Python loop took ten times that)."""
    import operator
    by_dict: dict = {}
    by_name: dict = {}
    cells, instances, news = [], [], []
    for kind, holder, key, value in entries:
        if kind in (_DICT, _CLASS):
            target = vars(holder) if kind == _CLASS else holder
            keys, values = by_dict.setdefault(id(target), (target, [], []))[1:]
            keys.append(key)
            values.append(value)
        elif kind == _ATTR:
            holders, values = by_name.setdefault(key, ([], []))
            holders.append(holder)
            values.append(value)
        elif kind == _CELL:
            cells.append((holder, value))
        elif kind == _INSTANCE:
            instances.append((holder, value, frozenset(n for n, v in vars(value).items()
                                                       if isinstance(v, (types.FunctionType, staticmethod,
                                                                         classmethod, property)))))
        elif kind == _NEW:
            news.append((holder, value))
    getters = tuple((target, operator.itemgetter(*keys, keys[0]), tuple(values) + (values[0],))
                    for target, keys, values in by_dict.values())
    attrs = tuple((operator.attrgetter(name), tuple(holders), tuple(values))
                  for name, (holders, values) in by_name.items())
    return (getters, attrs, tuple(h for h, _ in cells), tuple(v for _, v in cells), tuple(instances), tuple(news),
            frozenset(vars(builtins)))


def changed(sealed, _missing=_MISSING, _getattr=getattr, _setattr=setattr, _type=type, _vars=vars,
            _type_set=type.__setattr__, _obj_set=object.__setattr__, _isinstance=isinstance, _len=len,
            _builtin_names=frozenset(vars(builtins)), _kinds=(_DICT, _CLASS, _ATTR, _CELL, _INSTANCE, _NEW),
            _methodish=(types.FunctionType, staticmethod, classmethod, property), _all=all, _map=map,
            _is=__import__("operator").is_, _cell=__import__("operator").attrgetter("cell_contents"),
            _any=any, _errors=(KeyError, AttributeError, ValueError)) -> list:
    """What differs from ``sealed`` (``take``), each put back; the builtins it uses are its defaults."""
    fast, entries = sealed
    getters, attrs, cells, held, instances, news, names = fast
    try:
        same = _all(_all(_map(_is, get(target), values)) for target, get, values in getters) and \
            _all(_all(_map(_is, _map(get, holders), values)) for get, holders, values in attrs) and \
            _all(_map(_is, _map(_cell, cells), held)) and \
            _all(_type(i) is c and not (_vars(i).keys() & m if _isinstance(_getattr(i, "__dict__", None), dict)
                                        else m & set()) for i, c, m in instances) and \
            not _any(_len(d.keys() - k & names) for d, k in news)
    except _errors:
        same = False
    if same:
        return []
    DICT, CLASS, ATTR, CELL, INSTANCE, NEW = _kinds
    found = []
    for kind, holder, key, value in entries:
        if kind == DICT:
            if holder.get(key, _missing) is not value:
                found.append(f"{key}")
                holder[key] = value
        elif kind == CLASS:
            if _vars(holder).get(key, _missing) is not value:
                found.append(f"{holder.__name__}.{key}")
                _type_set(holder, key, value)
        elif kind == ATTR:
            if _getattr(holder, key, _missing) is not value:
                found.append(f"{_getattr(holder, '__name__', '?')}.{key}")
                _setattr(holder, key, value)
        elif kind == CELL:
            if holder.cell_contents is not value:
                found.append("a closure of the judge's")
                holder.cell_contents = value
        elif kind == INSTANCE:
            if _type(holder) is not value:
                found.append(f"the class of the judge's {value.__name__}")
                _obj_set(holder, "__class__", value)
            own = _vars(holder) if _isinstance(_getattr(holder, "__dict__", None), dict) else {}
            for name in [n for n in own if _isinstance(_vars(value).get(n), _methodish)]:
                found.append(f"{value.__name__}.{name} (on the instance)")
                del own[name]
        elif kind == NEW:
            for name in [n for n in holder if n not in value and n in _builtin_names]:
                found.append(f"{name} (a builtin's name among the judge's globals)")
                del holder[name]
    return found
