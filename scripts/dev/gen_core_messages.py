#!/usr/bin/env python3
"""The catalog of core's user-visible message templates, for translation.

core/ is Qt-free and writes its messages in English: near-miss reasons of
patterns, notes of skipped passes, rollback and numeric-check messages. Each
is a passlab::Text (core/support/text.h): a template and its arguments,

    Text::of("BatchNormalization %1 is not constant", names[i])

or a literal sentence ("the pads are not constant"). The UI translates the
template (ui/i18n/core_text.h) and puts the translated arguments back in;
nothing is parsed back out of English.

This script scans core/passes, core/rewrite and core/pipeline for the places
that produce messages (Text::of(...), MatchResult::failure(...),
`why = ...`, `return ...`, error constructors, ExplainLog notes, Step notes,
check details) and the kinds of the passes (core/passes/pass_catalog.json), and
collects their literal templates into ui/i18n/core_message_catalog.cpp as
QT_TRANSLATE_NOOP("core", ...) entries, which lupdate puts in the .ts file.

A message built by string concatenation ("BatchNormalization " + name +
" is not constant") or by printf formatting reaches the UI as finished English
that no template fits: --check fails on every such place, naming it.

    scripts/dev/gen_core_messages.py          # rewrite the catalog
    scripts/dev/gen_core_messages.py --check  # exit 1 if a core message lacks an entry or is
                                              # built by concatenation (a ctest)

After rewriting it, refresh the .ts file (`cmake --build BUILD --target
passlab_ui_lupdate`) and translate the new "core" messages.
"""
import argparse
import json
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCAN_DIRS = ["core/passes", "core/rewrite", "core/pipeline"]
CATALOG = "ui/i18n/core_message_catalog.cpp"
PASS_CATALOG = "core/passes/pass_catalog.json"

# Calls whose string arguments are messages.
CALL_TRIGGERS = {
    "failure",  # MatchResult::failure
    "note",  # ExplainLog::note
    "invalidArgument",
    "invalidModel",
    "internalError",
    "unsupported",
    "notFound",
    "ioError",
    "withContext",
    "Error",
    "logic_error",  # thrown: "<pass> threw: <what>"
    "runtime_error",
}
# printf-style calls: the format argument (index) is a message with %s/%d/%g... fields.
PRINTF_TRIGGERS = {"snprintf": 2, "sprintf": 1}
PRINTF_FIELD = re.compile(r"%[-+ #0]*[0-9*]*(?:\.[0-9*]+)?(?:hh|h|ll|l|z|j|t|L)?[diouxXeEfFgGaAcsp%]")

TOKEN_RE = re.compile(
    r"""
    (?P<ws>\s+)
  | (?P<lcomment>//[^\n]*)
  | (?P<bcomment>/\*.*?\*/)
  | (?P<raw>(?:u8|u|U|L)?R"(?P<delim>[^(\s]*)\((?P<rawbody>.*?)\)(?P=delim)")
  | (?P<str>(?:u8|u|U|L)?"(?:[^"\\\n]|\\.)*")
  | (?P<chr>'(?:[^'\\\n]|\\.)*')
  | (?P<num>\.?[0-9](?:[0-9a-zA-Z_.']|[eEpP][+-])*)
  | (?P<id>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<op>->|::|\+=|-=|\*=|/=|==|!=|<=|>=|&&|\|\||<<|>>|\+\+|--|[^\sA-Za-z0-9_])
    """,
    re.S | re.X,
)

ESCAPES = {"n": "\n", "t": "\t", '"': '"', "'": "'", "\\": "\\", "?": "?", "0": "\0"}


def unescape(body):
    out, i = [], 0
    while i < len(body):
        c = body[i]
        if c == "\\" and i + 1 < len(body):
            out.append(ESCAPES.get(body[i + 1], body[i + 1]))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


class Tok:
    __slots__ = ("kind", "text", "value")

    def __init__(self, kind, text, value=None):
        self.kind, self.text, self.value = kind, text, value

    def __repr__(self):
        return f"{self.kind}:{self.text}"


def tokenize(src):
    # Preprocessor lines carry no messages.
    src = re.sub(r"^[ \t]*#[^\n]*(?:\\\n[^\n]*)*", "", src, flags=re.M)
    toks = []
    for m in TOKEN_RE.finditer(src):
        kind = m.lastgroup
        if kind in ("ws", "lcomment", "bcomment"):
            continue
        if kind == "raw" or m.group("raw"):
            toks.append(Tok("str", m.group(0), m.group("rawbody")))
        elif kind == "str":
            text = m.group(0)
            toks.append(Tok("str", text, unescape(text[text.index('"') + 1 : -1])))
        else:
            toks.append(Tok(kind if kind in ("id", "num", "chr") else "op", m.group(0)))
    return toks


OPEN = {"(": ")", "[": "]", "{": "}"}
CLOSE = {")", "]", "}"}


def match_close(toks, i):
    """Index of the bracket closing the one at i."""
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j].text if toks[j].kind == "op" else None
        if t in OPEN:
            depth += 1
        elif t in CLOSE:
            depth -= 1
            if depth == 0:
                return j
    return len(toks) - 1


def split_top(toks, seps):
    """Splits a token list at top-level separators."""
    parts, cur, depth = [], [], 0
    for t in toks:
        if t.kind == "op" and t.text in OPEN:
            depth += 1
        elif t.kind == "op" and t.text in CLOSE:
            depth -= 1
        if depth == 0 and t.kind == "op" and t.text in seps:
            parts.append(cur)
            cur = []
        else:
            cur.append(t)
    parts.append(cur)
    return parts


def strip_parens(toks):
    while toks and toks[0].text == "(" and match_close(toks, 0) == len(toks) - 1:
        toks = toks[1:-1]
    return toks


def literal_of(operand):
    """The text of an operand that is a literal ("a" "b", std::string("a")), else None."""
    operand = strip_parens(operand)
    if operand and all(t.kind == "str" for t in operand):
        return "".join(t.value for t in operand)
    # std::string("...") / std::string_view("...") / std::string{"..."}
    if (
        len(operand) >= 6
        and operand[0].text == "std"
        and operand[1].text == "::"
        and operand[2].text in ("string", "string_view")
        and operand[3].text in ("(", "{")
        and match_close(operand, 3) == len(operand) - 1
    ):
        inner = operand[4:-1]
        if inner and all(t.kind == "str" for t in inner):
            return "".join(t.value for t in inner)
    return None


def extract(expr, out, prefix_placeholder=False):
    """Adds the templates of an expression (and of literal chains nested in it) to out."""
    expr = strip_parens(expr)
    if not expr:
        return
    # A conditional: the branches are messages, the condition is not.
    q = split_top(expr, {"?"})
    if len(q) > 1:
        rest = [t for part in q[1:] for t in part + [Tok("op", "?")]][:-1]
        branches = split_top(rest, {":"})
        for b in branches:
            extract(b, out, prefix_placeholder)
        for t in q[0]:
            pass
        scan_nested(q[0], out)
        return
    operands = split_top(expr, {"+"})
    pieces = []  # str (literal) or None (placeholder)
    if prefix_placeholder:
        pieces.append(None)
    has_literal = False
    for op in operands:
        lit = literal_of(op)
        if lit is not None:
            pieces.append(lit)
            has_literal = True
        else:
            pieces.append(None)
            scan_nested(op, out)
    if not has_literal:
        return
    template, n = [], 0
    for p in pieces:
        if p is None:
            n += 1
            template.append(f"%{n}")
        else:
            if n_placeholders(pieces) and re.search(r"%\d", p):
                raise SystemExit(f"a concatenated core message literal contains %<digit>: {p!r}")
            template.append(p)
    if add(out, "".join(template)) and n_placeholders(pieces):
        CONCATENATED.append((CURRENT_FILE[0], "".join(template)))


def n_placeholders(pieces):
    return sum(1 for p in pieces if p is None)


# Messages built by concatenation or printf (file, template): --check fails on them.
CONCATENATED = []
CURRENT_FILE = [""]


def scan_nested(toks, out):
    """Literal chains inside brackets of a non-literal operand (ternaries, call arguments)."""
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.kind == "op" and t.text in ("(", "{") and any(x.kind == "str" for x in toks[i:]):
            j = match_close(toks, i)
            # Lambdas and other statement blocks are scanned as code.
            inner = toks[i + 1 : j]
            if t.text == "{" or any(x.text == ";" for x in inner):
                scan_code(inner, out)
            else:
                for arg in split_top(inner, {","}):
                    extract(arg, out)
            i = j + 1
        else:
            i += 1


# Strings in the scanned code that look like messages but are not shown in the
# UI (file, template): a model written as text, CLI-only descriptions, a
# template prefix tested in code. Neither catalogued nor reported.
NOT_MESSAGES = {
    ("core/pipeline/roofs.cpp", "main (float[%1,%2] A, float[%3,%4] B) => (float[%5,%6] C) { C = MatMul(A, B) }"),
    ("core/pipeline/profile.cpp", "%1 %2 (given)"),
    ("core/passes/fuse_elementwise_chains.cpp", "%1 is "),
}


def add(out, template):
    if (CURRENT_FILE[0], template) in NOT_MESSAGES:
        return False
    # A reason joined to another one: "nothing to fuse with" + (": " + why),
    # "K: " + why.
    if re.fullmatch(r"[A-Z]?: %\d+", template):
        out.add(template)
        return True
    letters = re.sub(r"%\d+", "", template)
    if len(re.findall(r"[A-Za-z]", letters)) < 2:
        return False
    if " " not in template.strip():
        return False  # identifiers, op and attribute names, word fragments: not sentences
    out.add(template)
    return True


def statement_end(toks, i):
    depth = 0
    for j in range(i, len(toks)):
        t = toks[j]
        if t.kind == "op" and t.text in OPEN:
            depth += 1
        elif t.kind == "op" and t.text in CLOSE:
            if depth == 0:
                return j
            depth -= 1
        elif depth == 0 and t.kind == "op" and t.text in (";", ","):
            return j
    return len(toks)


# PassInfo / PassOption fields written as designated initializers whose
# strings are not messages to translate (the kind is: see scan_pass_kinds).
DESIGNATED_NOT_MESSAGES = {"id", "summaryEn", "summaryZh", "name", "defaultValue", "help"}


def scan_code(toks, out):
    i = 0
    while i < len(toks):
        t = toks[i]
        if t.kind == "id" and t.text in CALL_TRIGGERS and i + 1 < len(toks) and toks[i + 1].text == "(":
            j = match_close(toks, i + 1)
            for arg in split_top(toks[i + 2 : j], {","}):
                # Error::withContext(c) gives Text::of("%1: %2", c, message).
                extract(arg, out)
            i += 2
            continue
        if t.kind == "id" and t.text in PRINTF_TRIGGERS and i + 1 < len(toks) and toks[i + 1].text == "(":
            j = match_close(toks, i + 1)
            args = split_top(toks[i + 2 : j], {","})
            k = PRINTF_TRIGGERS[t.text]
            fmt = literal_of(args[k]) if k < len(args) else None
            if fmt is not None:
                n = [0]

                def field(m):
                    if m.group(0) == "%%":
                        return "%"
                    n[0] += 1
                    return f"%{n[0]}"

                templ = PRINTF_FIELD.sub(field, fmt)
                if add(out, templ):
                    CONCATENATED.append((CURRENT_FILE[0], templ))
            for arg in args[k + 1 :]:
                extract(arg, out)
            i += 2
            continue
        if t.kind == "id" and t.text == "return":
            j = statement_end(toks, i + 1)
            extract(toks[i + 1 : j], out)
            i += 1
            continue
        if t.kind == "op" and t.text == "=" and i >= 2 and toks[i - 2].text == "." and toks[i - 1].kind == "id":
            # A designated initializer: of PassInfo / PassOption fields only
            # the pass kind is shown translated (summaries carry their own
            # Chinese; ids, names, defaults and option help are not core
            # messages). Other fields are scanned as any assignment.
            if toks[i - 1].text in DESIGNATED_NOT_MESSAGES:
                i += 1
                continue
        if t.kind == "op" and t.text in ("=", "+="):
            j = statement_end(toks, i + 1)
            rhs = toks[i + 1 : j]
            if rhs and rhs[0].text != "{":
                extract(rhs, out, prefix_placeholder=(t.text == "+="))
            i += 1
            continue
        i += 1


def scan_pass_kinds(root, out):
    """The kinds of the passes in core/passes/pass_catalog.json.

    The pass list shows a pass's kind ("redundant node: inverse pairs") next
    to its category, translated; summaries carry their own Chinese.
    """
    with open(os.path.join(root, PASS_CATALOG), encoding="utf-8") as fh:
        for entry in json.load(fh)["passes"]:
            kind = entry["kind"]
            if re.search(r"%\d", kind):
                raise SystemExit(f"a pass kind contains %<digit>: {kind!r}")
            out.add(kind)


def collect(root):
    out = set()
    for d in SCAN_DIRS:
        for dirpath, _, files in os.walk(os.path.join(root, d)):
            for f in sorted(files):
                if not f.endswith((".cpp", ".h")):
                    continue
                CURRENT_FILE[0] = os.path.relpath(os.path.join(dirpath, f), root)
                with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                    toks = tokenize(fh.read())
                scan_code(toks, out)
    scan_pass_kinds(root, out)
    return sorted(out)


def c_string(s):
    out = s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
    return '"' + out + '"'


def render(templates):
    lines = [
        "// The English templates of core's user-visible messages, for lupdate and",
        "// ui/i18n/core_text.h. Generated by scripts/dev/gen_core_messages.py from",
        "// core/passes, core/rewrite and core/pipeline: do not edit by hand.",
        "// clang-format off",
        '#include <QtGlobal>',
        "",
        '#include "ui/i18n/core_text.h"',
        "",
        "namespace passlab::ui {",
        "",
        "const std::vector<const char*>& coreMessageTemplates() {",
        "  static const std::vector<const char*> kTemplates = {",
    ]
    for t in templates:
        lines.append(f'      QT_TRANSLATE_NOOP("core", {c_string(t)}),')
    lines += [
        "  };",
        "  return kTemplates;",
        "}",
        "",
        "}  // namespace passlab::ui",
        "// clang-format on",
        "",
    ]
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true", help="exit 1 if the catalog is out of date")
    ap.add_argument("--root", default=ROOT)
    ap.add_argument("--list", action="store_true", help="print the templates")
    args = ap.parse_args()
    templates = collect(args.root)
    if args.list:
        print("\n".join(templates))
        return 0
    path = os.path.join(args.root, CATALOG)
    text = render(templates)
    if args.check:
        # Fails when core has a template the catalog lacks; entries core no
        # longer has only warn (a pass being written in another tree may add
        # them back), and go at the next regeneration.
        old = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
        have = set(re.findall(r'QT_TRANSLATE_NOOP\("core", (".*")\),$', old, re.M))
        want = {c_string(t) for t in templates}
        for t in sorted(have - want):
            print(f"warning: catalog entry no longer in core: {t}")
        missing = sorted(want - have)
        for t in missing:
            print(f"core message without a catalog entry: {t}")
        for f, t in sorted(set(CONCATENATED)):
            print(f"{f}: a message built by concatenation or printf, not Text::of: {c_string(t)}")
        if CONCATENATED:
            print("write such messages as Text::of(\"...%1...\", args...) (core/support/text.h), "
                  "so that the UI can translate them")
            return 1
        if missing:
            print(
                f"{CATALOG} is out of date: run scripts/dev/gen_core_messages.py, then "
                "`cmake --build BUILD --target passlab_ui_lupdate` and translate the new "
                '"core" messages in translations/passlab_zh_CN.ts'
            )
            return 1
        print(f"{CATALOG}: all {len(templates)} core message templates have an entry")
        return 0
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"{CATALOG}: {len(templates)} core message templates")
    return 0


if __name__ == "__main__":
    sys.exit(main())
