"""A `use` of a library mechanic made into the game's own declarations (language §9.0a).

The loader reads the mechanic's file (interpreter/library/) and hands its declarations here with
the `use`: each setting becomes a function whose body is the one the `use` gives, else the
setting's default; every declaration is cited as the `use` line, so the trace, `umpire rule` and
coverage name the game's rule, not the library's. What comes out is ordinary IR: the checker,
the runtime and overlays see no difference between a library's procedure and the game's own.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..syntax.diagnostics import Diagnostic, UmpireError, did_you_mean
from . import citations
from . import nodes as n
from .citations import recited


def expanded(use: n.UseDecl, library: Sequence) -> list:
    """The declarations a `use` stands for, or an error naming what is wrong with it."""
    if use.cite is None:
        raise UmpireError([Diagnostic(
            "error", f"'use {use.name}' needs the citation of the game's rule it encodes", use.span,
            f"write 'use {use.name} [RULE]': every declaration of the mechanic is cited as that rule")])
    settings = {d.name: d for d in library if isinstance(d, n.SettingDecl)}
    bound = _bindings(use, settings)
    paragraphs = _paragraphs(use, library)
    out = []
    for decl in library:
        if isinstance(decl, n.SettingDecl):
            out.append(_setting(use, decl, bound.get(decl.name), paragraphs))
        else:
            out.append(recited(decl, use.cite, paragraphs))
    return out


def _paragraphs(use: n.UseDecl, library: Sequence) -> dict[str, n.Citation]:
    """The game's citation for each paragraph of the mechanic the `use` cites apart ('[RNF-4] as [5.0]')."""
    written = {c.text for c in citations.written(library)}
    out: dict[str, n.Citation] = {}
    for recite in use.recites:
        text = recite.paragraph.text
        if text not in written:
            hint = did_you_mean(text, written) or f"its paragraphs: {', '.join(sorted(written, key=_natural))}"
            raise UmpireError([Diagnostic("error", f"the library mechanic '{use.name}' has no paragraph [{text}]",
                                          recite.paragraph.span, hint)])
        if text in out:
            raise UmpireError([Diagnostic("error", f"the paragraph [{text}] of '{use.name}' is cited twice",
                                          recite.span, "cite each paragraph as one rule")])
        out[text] = recite.cite
    return out


def _natural(text: str) -> tuple:
    """RNF-2 before RNF-10."""
    head, _, number = text.rpartition("-")
    return (head, int(number)) if number.isdigit() else (text, 0)


def _bindings(use: n.UseDecl, settings: dict[str, n.SettingDecl]) -> dict[str, n.UseBinding]:
    """The `use`'s bindings by name: each names a setting of the mechanic, once."""
    bound: dict[str, n.UseBinding] = {}
    problems = []
    for binding in use.bindings:
        if binding.name not in settings:
            known = ", ".join(settings) or "none"
            hint = did_you_mean(binding.name, settings) or f"the settings of '{use.name}': {known}"
            problems.append(Diagnostic("error", f"the library mechanic '{use.name}' has no setting '{binding.name}'",
                                       binding.span, hint))
        elif binding.name in bound:
            problems.append(Diagnostic("error", f"the setting '{binding.name}' of '{use.name}' is given twice",
                                       binding.span, "give each setting one value"))
        else:
            bound[binding.name] = binding
    if problems:
        raise UmpireError(problems)
    return bound


def _setting(use: n.UseDecl, setting: n.SettingDecl, binding: n.UseBinding | None,
             paragraphs: dict[str, n.Citation]) -> n.FunctionDecl:
    """A setting as the function the game's rules call: the game's body when the `use` gives one."""
    cite = recited(setting.cite, use.cite, paragraphs) if setting.cite is not None else use.cite
    if binding is not None:  # the game's line, wholly: the library's default line encodes nothing of it
        params = tuple(p.model_copy(update={"span": binding.span}) for p in setting.params)
        return n.FunctionDecl(span=binding.span, name=setting.name, params=params, body=binding.value,
                              cite=binding.cite or cite, returns=setting.returns)
    if setting.default is None:
        params = ", ".join(p.name for p in setting.params)
        raise UmpireError([Diagnostic(
            "error", f"'use {use.name}' does not give the setting '{setting.name}', which has no default", use.span,
            f"write '{setting.name} = …' in the use's block" + (f" (its parameters: {params})" if params else ""))])
    return n.FunctionDecl(span=setting.span, name=setting.name, params=setting.params,
                          body=recited(setting.default, use.cite, paragraphs), cite=cite, returns=setting.returns)
