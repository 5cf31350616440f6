"""The language front end: vocabulary generation, the outline, AST shape,
explain, and the house rules about the interpreter package."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from interpreter.cli import main
from interpreter.compiler.verb_steps import _participles
from interpreter.language import ast
from interpreter.language.game_rules import parse_ability
from interpreter.language.games import load_game, shipped_games
from interpreter.language.vocabulary import base_of, present_forms
from interpreter.language.render import render_ability
from interpreter.language.syntax import parse_outline
from interpreter.language.vocabulary import Pattern, plural
from interpreter.source import SourceText

ROOT = Path(__file__).resolve().parent.parent


def test_plurals_of_card_kinds():
    assert plural("Ally") == "Allies"
    assert plural("Matrix") == "Matrixes"
    assert plural("Being") == "Beings"
    assert plural("Story Arc") == "Story Arcs"
    assert plural("Day") == "Days"


def test_verb_pattern_slots_and_plural_words():
    pattern = Pattern("Pay {n} Crystal(s)")
    assert pattern.slots == ("n",)
    assert pattern.leading_words == "Pay"
    assert 'amount' in pattern.grammar_alternative()
    assert Pattern("Frob {thing}").bad_slots() == ["thing"]


def test_every_shipped_game_checks_clean():
    for game_id in shipped_games():
        game = load_game(game_id)
        assert game.problems == [], [p.render() for p in game.problems]
        assert len(game.cards) >= 10
        assert game.decks, f"{game_id} ships no deck"


def test_outline_reads_heads_values_and_blocks():
    source = SourceText("x.cards", 'card "A"\n  AP: 60   # note\n  text:\n    Draw a card.\n')
    lines, problems = parse_outline(source)
    assert problems == []
    card = lines[0]
    assert card.head[1].text == "A" and card.head[1].quoted
    ap, text = card.children
    assert (ap.key, ap.value) == ("AP", "60")
    assert text.children[0].key == "Draw a card."


def test_crlf_and_bom_read_like_plain_text():
    plain = 'card "A"\n  AP: 60\n'
    lines_a, _ = parse_outline(SourceText("a", plain))
    lines_b, problems = parse_outline(SourceText("b", "\ufeff" + plain.replace("\n", "\r\n")))
    assert problems == []
    assert [l.key for l in lines_a] == [l.key for l in lines_b]
    assert lines_b[0].children[0].value == "60"


@pytest.fixture(scope="module")
def ryft():
    return load_game("ryft").rules


def test_conditions_and_costs_are_classified_by_position(ryft):
    ability = parse_ability(ryft, "ABILITY: Pay 2 Synergy: This gets +20 AP until the End Stage.")
    assert ability.label == "ABILITY"
    assert ability.conditions == ()
    (cost,) = ability.costs
    assert cost.args[2] == ast.Action("pay", (2, "Synergy"))
    (sentence,) = ability.resolution
    step = sentence.args[0].args[0]
    assert step.form == "state_change"
    assert step.args[1] == ast.Statement("gets", (ast.StatChange("stat_change", (20, "AP")),))


def test_then_makes_a_step_depend_on_the_one_before(ryft):
    ability = parse_ability(ryft, "Draw 2 cards, then discard a card. Draw a card.")
    first, second = ability.resolution
    assert [l.form for l in first.args] == ["first", "then"]
    assert [l.form for l in second.args] == ["first"]


def test_when_condition_names_the_event(ryft):
    ability = parse_ability(ryft, "TRIGGER: When this is Summoned: Draw a card.")
    (condition,) = ability.conditions
    assert condition.form == "when"
    assert condition.args[0].form == "card_event"


def test_vocabulary_words_are_whole_words(ryft):
    from interpreter.errors import CardrulesError

    with pytest.raises(CardrulesError) as info:
        parse_ability(ryft, "This gets +20 APP.")
    problem = info.value.first
    assert problem.message == 'unexpected word "APP"'
    assert problem.span.column == 15
    assert problem.suggestion == 'did you mean "AP"?'


def test_card_names_in_quotes_are_references(ryft):
    ability = parse_ability(ryft, 'Destroy "Cinderpup".')
    assert [name for name, _ in ast.card_references(ability)] == ["Cinderpup"]


def test_explain_prints_structure_and_exit_codes():
    runner = CliRunner()
    result = runner.invoke(main, ["explain", "ryft", "TRIGGER: When this is Summoned: "
                                  "Deal 20 damage to a Being your Rival controls, then draw a card."])
    assert result.exit_code == 0, result.output
    assert "timing: TRIGGER (triggered, optional)" in result.output
    assert "  - when this is Summoned" in result.output
    assert "2. step: draw a card  [only if the step before it happened]" in result.output
    bad = runner.invoke(main, ["explain", "ryft", "TRIGER: Draw a card."])
    assert bad.exit_code == 1
    assert 'E301 unknown timing label "TRIGER"' in bad.output
    assert 'did you mean "TRIGGER"?' in bad.output
    unknown = runner.invoke(main, ["explain", "nope", "Draw a card."])
    assert unknown.exit_code == 2
    assert 'E902 unknown game "nope"' in unknown.output


def _explained(game: str, text: str) -> list[str]:
    """The lines `cardrules explain GAME TEXT` prints (it must succeed), up to
    its last, the kinds of card the text runs on."""
    result = CliRunner().invoke(main, ["explain", game, text])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[-1].startswith(("runs on: ", "runs as: ")), result.output
    return lines[:-1]


@pytest.mark.parametrize("game, text, kinds", [
    # a Sorcery's text happens when it is cast; a Creature's needs a moment
    ("arcane-duel", "Draw a card.", "Sorcery"),
    ("arcane-duel", "At the start of your next Upkeep, draw a card.", "Sorcery"),
    ("arcane-duel", "This can't attack.", "Aura, Creature, Instant, Land, Sorcery"),
    ("ryft", "TRIGGER: When this is Summoned, draw a card.", "Being, Matrix"),
    # a declared adjective written capitalised, as printed cards do
    ("pocket-league", "Search your deck for a Basic creature.", "Item, Supporter"),
])
def test_explain_names_the_kinds_of_card_a_text_runs_on(game, text, kinds):
    result = CliRunner().invoke(main, ["explain", game, text])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == f"runs on: {kinds}"


def test_a_token_with_no_zone_named_needs_one_zone_in_play():
    # RYFT has three zones in play: which one is not guessed
    result = CliRunner().invoke(main, ["explain", "ryft", 'Create a "Drone" token.'])
    assert result.exit_code == 1, result.output
    assert "<text>:1:10: E801 the engine cannot run a token created with no zone named in a " \
        "game with several zones in play yet" in result.output
    assert 'name it: "Create ... in your Battle Zone"' in result.output


def test_explain_names_a_rule_that_runs_on_no_card():
    # "they" is the player the rule's condition names: a rules file's rule
    result = CliRunner().invoke(main, ["explain", "arcane-duel",
                                       "If a player controls no Creatures, they lose the game."])
    assert result.exit_code == 0, result.output
    assert result.output.splitlines()[-1] == \
        'runs as: a rule of the rules file (rule "NAME": TEXT), not on a card'


@pytest.mark.parametrize("text, where, message", [
    # check would refuse it on every kind: explain says so, at its column
    ("At the start of your next Upkeep: draw a card.", 17,
     'E823 "at the start of your next Upkeep" is one moment to come, and a triggered '
     "ability happens at every one"),
    # a card chosen inside the X of a change that lasts (a step's number
    # chooses it as the step begins: that one runs)
    ("A Creature you control gets +X power until the end of the turn, where X is the power "
     "of a Creature your Rival controls.", 1, "E801 the engine cannot run a card to choose"),
])
def test_explain_reports_a_text_no_card_could_run(text, where, message):
    result = CliRunner().invoke(main, ["explain", "arcane-duel", text])
    assert result.exit_code == 1, result.output
    assert f"<text>:1:{where}: {message}" in result.output
    assert "runs on" not in result.output and "Traceback" not in result.output


def test_explain_says_what_a_step_after_an_if_depends_on():
    # issue "Rules fidelity": "If X, Y" was shown as a step "independent of
    # the step before it", which reads as if Y were unconditional
    assert _explained("ryft", "If you control a BLAZE Being, draw a card and gain 1 Synergy, "
                      "then discard a card. Otherwise, draw 2 cards. Draw a card.")[-7:] == [
        "  1. condition: if you control a BLAZE Being",
        "  2. step: draw a card  [only if you control a BLAZE Being]",
        "  3. step: gain 1 Synergy  [only if you control a BLAZE Being; "
        "independent of the step before it]",
        "  4. step: discard a card  [only if you control a BLAZE Being; "
        "only if the step before it happened]",
        "  5. condition: otherwise",
        '  6. step: draw 2 cards  [only if the "if" of the sentence before did not hold]',
        "  7. step: draw a card"]


def test_explain_says_what_a_joined_item_and_a_for_each_do():
    # "and each player" is the damage step again; "For each X," repeats the rest
    assert _explained("arcane-duel", "Deal 1 damage to each Creature and each player. For "
                      "each Creature you control, draw a card.")[-4:] == [
        "  1. step: deal 1 damage to each Creature",
        "  2. the step before again, to: each player  [independent of the step before it]",
        "  3. condition: for each Creature you control",
        "  4. step: draw a card  [once for each Creature you control (counted when the "
        "sentence comes to it)]"]


def test_explain_calls_a_card_dealing_damage_a_step_and_a_bonus_a_change():
    # "This deals 2 damage" happens once; "gets +1 power" lasts
    assert _explained("arcane-duel", "This deals 2 damage to your Rival. This gets +1 power "
                      "until the end of the turn.")[-2:] == [
        "  1. step: this deals 2 damage to your Rival",
        "  2. continuous change: this gets +1 power until the end of the turn"]


def test_games_lists_every_shipped_game():
    result = CliRunner().invoke(main, ["games"])
    assert result.exit_code == 0
    for game_id in shipped_games():
        assert game_id in result.output


# ---------------------------------------------------------------- house rules

GAME_WORDS = re.compile(
    r"\b(stamina|crystals?|stockpiles?|embolden|synergy|over-synergi[sz]e|matrix|"
    r"matrixes|segments?|instincts?|chapters?|purged?|purges|protagonists?|shonen|"
    r"life ?force|deck virus|void call|rival rush|ryft|saturday wars|silver wing|"
    r"meat boy|story arcs?)\b", re.I)


def test_interpreter_names_no_game():
    offenders = []
    for path in (ROOT / "interpreter").rglob("*.py"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if GAME_WORDS.search(line):
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == []


def test_no_eval_exec_pickle_or_unsafe_yaml():
    pattern = re.compile(r"\b(eval|exec)\s*\(|\bpickle\b|\bmarshal\b|yaml\.load\(|"
                         r"__import__\(")
    offenders = []
    for path in (ROOT / "interpreter").rglob("*.py"):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.name}:{number}: {line.strip()}")
    assert offenders == []


def test_a_step_after_a_players_step_shows_that_player(ryft):
    # issue "Card text as printed": explain showed "draw 3 cards" (the card's
    # controller, as a reader takes it) where the Rival draws, and the
    # canonical text dropped the verb's "s"
    text = "TRIGGER: When this is Summoned: Your Rival shuffles their hand into their deck, " \
           "then draws 3 cards."
    ability = parse_ability(ryft, text)
    assert render_ability(ability) == text
    assert parse_ability(ryft, render_ability(ability)) == ability
    result = CliRunner().invoke(main, ["explain", "ryft", text])
    assert result.exit_code == 0, result.output
    assert "2. step: your Rival draws 3 cards  [only if the step before it happened]" \
        in result.output
    sets = CliRunner().invoke(main, [
        "explain", "saturday-wars", "ANIMATE: Each player with the most Progress Marker "
        "discards a card, then draws a card."])
    assert "2. step: each player with the most Progress Marker draws a card  [only if the " \
           "step before it happened; the same players as step 1]" in sets.output


def test_and_after_if_joins_a_second_condition():
    """ "If it is blocked and it has Trample, ...": two conditions, never a
    step giving the keyword (which the flat grammar would read otherwise)."""
    rules = load_game("arcane-duel").rules
    ability = parse_ability(rules, "Choose a Creature. If it is blocked and it has Trample, "
                                   "draw a card.")
    links = ability.args[3][1].args
    assert [(l.args[0].form, getattr(l.args[0].args[0], "form", None)) for l in links] == [
        ("if_", "is_state"), ("if_", "card_has_keyword"), ("act", None)]
    # a comma keeps the step: "If it is blocked, it has Trample and ..." is not this
    after_comma = parse_ability(rules, "Choose a Creature. If it is blocked, draw a card and "
                                       "gain 1 Life.")
    assert [l.args[0].form for l in after_comma.args[3][1].args] == ["if_", "act", "act"]


def test_each_player_with_no_counter_reads_beside_no_cards_in_a_zone():
    # "each player with no" was one word of the lexer, meant for "no cards in
    # hand": a counter after it ("no Activation") did not read
    assert _explained("rival-rush", "Each player with no Activation draws a card.")[0] == \
        "canonical: Each player with no Activation draws a card."
    assert _explained("rival-rush", "Each player with no cards in hand draws a card.")[0] == \
        "canonical: Each player with no cards in hand draws a card."


@pytest.mark.parametrize("pattern, participle", [
    ("Restrict {card}", "be restricted"), ("Exile {card}", "be exiled"),
    ("Copy {card}", "be copied"), ("Drop {n} card", "be dropped"),
    ("Put {card} onto your bench", "be put"), ("Grow {card}", "be grown"),
    ("Heal {n} damage from {card}", "be healed"), ("Dump {n}", "be dumped"),
])
def test_a_game_verb_is_named_by_its_participle_in_a_cant(pattern, participle):
    # "Allies can't be Restricted" / "can't be put ...": what a "can't"
    # calls the verb done to a card; irregular verbs are not "-ed"
    assert _participles(pattern) == (participle,)


@pytest.mark.parametrize("participle, words, verb", [
    # the game's own word for it first, spelled as the participle is
    ("Summoned", ("summon", "a", "Being"), "Summon"),
    ("cast", ("cast",), "cast"),
    # else the usual English
    ("dealt", (), "deal"), ("copied", (), "copy"), ("dropped", (), "drop"),
    ("saved", (), "save"), ("passed", (), "pass"), ("called", (), "call"),
    ("merged", (), "merge"), ("smiled", (), "smile"), ("heated", (), "heat"),
])
def test_an_events_verb_is_found_from_its_participle(participle, words, verb):
    assert base_of(participle, words) == verb


@pytest.mark.parametrize("game, forms", [
    # "blocks" is an event of its own; "sacrifice" is the verb Sacrifice
    ("arcane-duel", {"casts": "cast", "sacrifices": "sacrificed"}),
    ("saturday-wars", {"purges": "purged", "revives": "revived",
                       "challenges": "challenged"}),
])
def test_a_game_reads_its_events_in_the_present_tense(game, forms):
    # "Whenever your Rival casts a Sorcery": each form read as the event
    assert present_forms(load_game(game).rules.vocabulary()) == forms


def test_a_cost_after_a_rivals_cost_is_the_rivals_and_renders_so():
    # found by the grammar's property test: "Your Rival discards this, may
    # draw 0 cards:" rendered the second cost as yours ("you may draw")
    rules = load_game("arcane-duel").rules
    ability = parse_ability(rules, "ABILITY: Exhaust this, your Rival discards a card, "
                            "discards a card: Draw a card.")
    text = render_ability(ability)
    assert text == "ABILITY: Exhaust this, your Rival discards a card, discards a card: " \
        "Draw a card."
    assert parse_ability(rules, text) == ability


def test_a_declared_adjective_is_read_whatever_its_case():
    # "a Basic creature", as printed cards capitalise it: the rules file's
    # "adjective basic: ..." (it was refused: "its meaning could not be read");
    # the kinds it runs on: test_explain_names_the_kinds_of_card_a_text_runs_on
    lines = _explained("pocket-league", "Search your deck for a Basic creature.")
    assert "  1. step: search your deck for a basic creature" in lines
