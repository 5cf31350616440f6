"""LALR(1) parse tables computed on integers: the table lark's own analyzer
computes, in a fraction of its time.

A game's card grammar has one terminal per declared word, so every edit of
a rules file's vocabulary is a new grammar whose table must be built before
anything is read. lark's analyzer (``lark.parsers.lalr_analysis``) spends
most of that time hashing and comparing its symbol and rule objects. This
module runs the same construction -- LR(0) item sets, then DeRemer and
Pennello's lookaheads (reads, includes, lookback) -- on numbers: items and
symbols are ints, sets of terminals are the bits of an int.

It is the same table, not merely an equivalent one: the same states (up to
their numbering, which lark does not fix either), the same shifts and the
same reductions, conflicts resolved the same way (a reduce/reduce by the
rules' priorities, a shift/reduce as a shift, or an error in strict mode)
and reported in lark's words, which ``vocabulary.clashing_words`` reads.
tests/test_lalr_tables.py compares it with lark's for the languages'
grammars (``corresponding_states``: the same table up to the numbering). lark's one departure from the textbook relation is kept: a
state's item of a rule whose dot is not at its start also walks to the
"includes" relation (lark's ``compute_includes_lookback``).

``lark_build`` uses it while it builds a parser (lark's debug tables, which
keep item sets as states, are still lark's own).
"""

from __future__ import annotations

from lark.exceptions import GrammarError
from lark.grammar import NonTerminal, Rule, Terminal
from lark.parsers.lalr_analysis import IntParseTable, LALR_Analyzer, Reduce, Shift


class IntegerAnalyzer:
    """Stands in for lark's ``LALR_Analyzer`` (the two members its parser
    reads: ``compute_lalr`` and ``parse_table``)."""

    def __init__(self, parser_conf, strict: bool = False):
        self.parser_conf = parser_conf
        self.strict = strict
        self.parse_table: IntParseTable | None = None

    def compute_lalr(self) -> None:
        self.parse_table = lalr_table(self.parser_conf.rules, self.parser_conf.start,
                                      self.strict)


def analyzer(parser_conf, debug: bool = False, strict: bool = False):
    """What lark's parser calls in place of ``LALR_Analyzer``."""
    if debug:
        return LALR_Analyzer(parser_conf, debug=debug, strict=strict)
    return IntegerAnalyzer(parser_conf, strict)


def _check_rules(rules: list[Rule], starts) -> None:
    """lark's own checks of the rules before its analysis, in its words."""
    whole = rules + [Rule(NonTerminal("$root_" + s), [NonTerminal(s), Terminal("$END")])
                     for s in starts]
    counts: dict[Rule, int] = {}
    for r in whole:
        counts[r] = counts.get(r, 0) + 1
    twice = [r for r, n in counts.items() if n > 1]
    if twice:
        raise GrammarError("Rules defined twice: %s" % ", ".join(str(r) for r in twice))
    origins = {r.origin for r in whole}
    for r in whole:
        for sym in r.expansion:
            if not (sym.is_term or sym in origins):
                raise GrammarError("Using an undefined rule: %s" % sym)


class _Grammar:
    """The rules as numbers: symbols, items (a rule and the dot's place)."""

    def __init__(self, rules: list[Rule]):
        self.rules = rules
        self.symbols: list = []
        ids: dict = {}

        def number(sym) -> int:
            found = ids.get(sym)
            if found is None:
                found = ids[sym] = len(self.symbols)
                self.symbols.append(sym)
            return found

        self.number = number
        self.expansions = [tuple(number(s) for s in r.expansion) for r in rules]
        self.origins = [number(r.origin) for r in rules]
        number(Terminal("$END"))
        self.is_term = [s.is_term for s in self.symbols]
        self.by_origin: dict[int, list[int]] = {}
        for index, origin in enumerate(self.origins):
            self.by_origin.setdefault(origin, []).append(index)
        # item i: rule item_rule[i] with the dot before item_next[i] (-1: at the end)
        self.first_item: list[int] = []
        self.item_rule: list[int] = []
        self.item_dot: list[int] = []
        self.item_next: list[int] = []
        for index, expansion in enumerate(self.expansions):
            self.first_item.append(len(self.item_rule))
            for dot in range(len(expansion) + 1):
                self.item_rule.append(index)
                self.item_dot.append(dot)
                self.item_next.append(expansion[dot] if dot < len(expansion) else -1)
        self.nullable = self._nullable()
        self._closures: dict[int, tuple[int, ...]] = {}

    def _nullable(self) -> set[int]:
        nullable: set[int] = set()
        changed = True
        while changed:
            changed = False
            for origin, expansion in zip(self.origins, self.expansions):
                if origin not in nullable and all(s in nullable for s in expansion):
                    nullable.add(origin)
                    changed = True
        return nullable

    def closure_of(self, nonterminal: int) -> tuple[int, ...]:
        """The items at the start of every rule a state expecting
        ``nonterminal`` may begin (lark's ``expand_rule``)."""
        found = self._closures.get(nonterminal)
        if found is None:
            items, seen, queue = [], {nonterminal}, [nonterminal]
            for symbol in queue:
                for rule in self.by_origin[symbol]:
                    items.append(self.first_item[rule])
                    expansion = self.expansions[rule]
                    if expansion and not self.is_term[expansion[0]] and expansion[0] not in seen:
                        seen.add(expansion[0])
                        queue.append(expansion[0])
            found = self._closures[nonterminal] = tuple(items)
        return found


class _Automaton:
    """The LR(0) item sets and their transitions, numbered as found."""

    def __init__(self, grammar: _Grammar, start_items: list[int]):
        self.closures: list[tuple[int, ...]] = []
        self.transitions: list[dict[int, int]] = []
        self.starts = [self._state(frozenset((item,)), grammar) for item in start_items]
        known: dict[frozenset, int] = {}
        item_next = grammar.item_next
        for state, closure in enumerate(self.closures):   # grows as states are found
            after: dict[int, list[int]] = {}
            for item in closure:
                symbol = item_next[item]
                if symbol >= 0:
                    after.setdefault(symbol, []).append(item + 1)
            row = self.transitions[state]
            for symbol, kernel_items in after.items():
                kernel = frozenset(kernel_items)
                target = known.get(kernel)
                if target is None:
                    target = known[kernel] = self._state(kernel, grammar)
                row[symbol] = target

    def _state(self, kernel: frozenset, grammar: _Grammar) -> int:
        closure = set(kernel)
        for item in kernel:
            symbol = grammar.item_next[item]
            if symbol >= 0 and not grammar.is_term[symbol]:
                closure.update(grammar.closure_of(symbol))
        self.closures.append(tuple(closure))
        self.transitions.append({})
        return len(self.closures) - 1


def _union_along(count: int, relation: list[list[int]], initial: list[int]) -> list[int]:
    """F(x) = initial(x) | F(y) for every y that x relates to, for every x
    (DeRemer and Pennello's "digraph"): each strongly connected component
    found by Tarjan's algorithm, iteratively, after those it reaches."""
    result = list(initial)
    index = [0] * count          # 0: not visited; else its order of visit + 1
    low = [0] * count
    on_stack = [False] * count
    stack: list[int] = []
    order = 0
    for root in range(count):
        if index[root]:
            continue
        order += 1
        index[root] = low[root] = order
        stack.append(root)
        on_stack[root] = True
        work = [(root, 0)]
        while work:
            node, position = work[-1]
            edges = relation[node]
            if position < len(edges):
                work[-1] = (node, position + 1)
                other = edges[position]
                if not index[other]:
                    order += 1
                    index[other] = low[other] = order
                    stack.append(other)
                    on_stack[other] = True
                    work.append((other, 0))
                elif on_stack[other] and index[other] < low[node]:
                    low[node] = index[other]
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                if low[node] < low[parent]:
                    low[parent] = low[node]
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack[member] = False
                    members.append(member)
                    if member == node:
                        break
                value = 0
                for member in members:
                    value |= result[member]
                    for other in relation[member]:
                        value |= result[other]    # the component's own are in progress
                for member in members:
                    result[member] = value
    return result


def lalr_table(rules: list[Rule], starts, strict: bool = False) -> IntParseTable:
    """lark's LALR(1) table of ``rules`` for the start rules ``starts``."""
    _check_rules(rules, starts)
    roots = [Rule(NonTerminal("$root_" + s), [NonTerminal(s)]) for s in starts]
    grammar = _Grammar(list(rules) + roots)
    root_rules = range(len(rules), len(rules) + len(roots))
    automaton = _Automaton(grammar, [grammar.first_item[r] for r in root_rules])
    closures, transitions = automaton.closures, automaton.transitions
    item_next, item_rule, item_dot = grammar.item_next, grammar.item_rule, grammar.item_dot
    is_term, nullable, expansions = grammar.is_term, grammar.nullable, grammar.expansions
    bit = {sym: 1 << position for position, sym in enumerate(
        s for s, term in enumerate(is_term) if term)}

    # the transitions on a nonterminal, numbered, and what each directly reads
    numbered: dict[tuple[int, int], int] = {}
    pairs: list[tuple[int, int]] = []
    for state, row in enumerate(transitions):
        for symbol in row:
            if not is_term[symbol]:
                numbered[(state, symbol)] = len(pairs)
                pairs.append((state, symbol))
    directly = [0] * len(pairs)
    reads: list[list[int]] = [[] for _ in pairs]
    end = bit[grammar.number(Terminal("$END"))]
    for start, rule in zip(automaton.starts, root_rules):
        directly[numbered[(start, expansions[rule][0])]] |= end
    for at, (state, symbol) in enumerate(pairs):
        target = transitions[state][symbol]
        for item in closures[target]:
            following = item_next[item]
            if following < 0:
                continue
            if is_term[following]:
                directly[at] |= bit[following]
            elif following in nullable:
                reads[at].append(numbered[(target, following)])

    # includes: (p, A) includes (p', B) where B -> x A y, y nullable, p' -x-> p
    includes: list[list[int]] = [[] for _ in pairs]
    lookback: list[list[tuple[int, int]]] = [[] for _ in pairs]
    for state, closure in enumerate(closures):
        by_origin: dict[int, list[int]] = {}
        for item in closure:
            by_origin.setdefault(grammar.origins[item_rule[item]], []).append(item)
        for symbol in transitions[state]:
            at = numbered.get((state, symbol))
            if at is None:
                continue
            for item in by_origin.get(symbol, ()):
                rule = item_rule[item]
                expansion = expansions[rule]
                walked = state
                for i in range(item_dot[item], len(expansion)):
                    step = expansion[i]
                    other = numbered.get((walked, step))
                    walked = transitions[walked][step]
                    if other is not None and all(
                            expansion[j] in nullable for j in range(i + 1, len(expansion))):
                        includes[other].append(at)
                if item_dot[item] == 0:
                    lookback[at].append((walked, rule))

    read_sets = _union_along(len(pairs), reads, directly)
    follow = _union_along(len(pairs), includes, read_sets)
    lookaheads: list[dict[int, int]] = [{} for _ in closures]
    for at, pairs_back in enumerate(lookback):
        for state, rule in pairs_back:
            row = lookaheads[state]
            row[rule] = row.get(rule, 0) | follow[at]
    return _table(grammar, automaton, lookaheads, bit, strict, starts)


def _table(grammar: _Grammar, automaton: _Automaton, lookaheads, bit, strict: bool,
           starts) -> IntParseTable:
    """The actions of every state, conflicts resolved as lark resolves them."""
    terminal_of = {mask.bit_length() - 1: sym for sym, mask in bit.items()}
    symbols, rules = grammar.symbols, grammar.rules
    states: dict[int, dict] = {}
    collisions = []
    for state, row in enumerate(automaton.transitions):
        actions = {symbols[sym].name: (Shift, target) for sym, target in row.items()}
        reducing: dict[int, list[int]] = {}
        for rule, mask in sorted(lookaheads[state].items()):
            while mask:
                low = mask & -mask
                mask ^= low
                reducing.setdefault(terminal_of[low.bit_length() - 1], []).append(rule)
        for terminal, candidates in sorted(reducing.items()):
            chosen = [rules[r] for r in candidates]
            if len(chosen) > 1:
                ranked = sorted(chosen, key=lambda r: r.options.priority or 0, reverse=True)
                if (ranked[0].options.priority or 0) > (ranked[1].options.priority or 0):
                    chosen = ranked[:1]
                else:
                    collisions.append((symbols[terminal], chosen))
                    continue
            name = symbols[terminal].name
            if name in actions:
                if strict:
                    raise GrammarError(f"Shift/Reduce conflict for terminal {name}. "
                                       f"[strict-mode]\n * {chosen[0]}\n")
                continue       # a shift/reduce conflict is resolved as the shift
            actions[name] = (Reduce, chosen[0])
        states[state] = actions
    if collisions:
        raise GrammarError("\n\n".join(
            "Reduce/Reduce collision in %s between the following rules: %s"
            % (terminal, "".join("\n\t- " + str(r) for r in chosen))
            for terminal, chosen in collisions))
    start_states, end_states = {}, {}
    for start, state in zip(starts, automaton.starts):
        start_states[start] = state
        end_states[start] = automaton.transitions[state][grammar.number(NonTerminal(start))]
    return IntParseTable(states, start_states, end_states)


def corresponding_states(theirs: IntParseTable, ours: IntParseTable) -> int:
    """The number of states of two tables that are the same table up to
    their states' numbering (lark's and this module's, for the tests and
    the benchmark): walked from their start states together, every state
    has the same actions on the same symbols, shifts reach states that
    correspond and reductions name equal rules. ValueError where not."""
    if set(theirs.start_states) != set(ours.start_states):
        raise ValueError("the tables have other start rules")
    matched: dict[int, int] = {}
    waiting: list[int] = []

    def pair(a: int, b: int) -> None:
        if a not in matched:
            matched[a] = b
            waiting.append(a)
        elif matched[a] != b:
            raise ValueError(f"state {a} corresponds to {matched[a]} and to {b}")

    for start, state in theirs.start_states.items():
        pair(state, ours.start_states[start])
    while waiting:
        a = waiting.pop()
        row_a, row_b = theirs.states[a], ours.states[matched[a]]
        if set(row_a) != set(row_b):
            raise ValueError(f"state {a} acts on other symbols: {sorted(set(row_a) ^ set(row_b))}")
        for symbol, (action, argument) in row_a.items():
            action_b, argument_b = row_b[symbol]
            if action is not action_b:
                raise ValueError(f"state {a} on {symbol}: {action} against {action_b}")
            if action is Shift:
                pair(argument, argument_b)
            elif argument != argument_b:
                raise ValueError(f"state {a} on {symbol} reduces {argument} against {argument_b}")
    if not len(matched) == len(theirs.states) == len(ours.states):
        raise ValueError(f"{len(matched)} states correspond, of {len(theirs.states)} and "
                         f"{len(ours.states)}")
    if any(matched[state] != ours.end_states[start]
           for start, state in theirs.end_states.items()):
        raise ValueError("the end states do not correspond")
    return len(matched)
