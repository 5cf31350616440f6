"""Who a text's pronouns and unwritten players are, read across the text
whole: a written "you" after another player's step, "they" before "can't"
(cards or a player), "them" after "If they don't", "they" after a condition
that names a player. The transformer builds each sentence; these passes
then read it with the steps before it."""

from __future__ import annotations

import attrs

from interpreter.language import ast


def you_steps(links: list) -> list:
    """ "You draw a card" is "Draw a card", and "You may Mulligan" is "you may
    Mulligan"; but after a step of another player's, a written "you" is kept:
    "Your Rival loses 2 Life, then you gain 2 Life" (without it, the step
    would be the Rival's, as in "Your Rival loses 2 Life, then gains 2")."""
    carried, out = None, []
    for link in links:
        item = link.args[0]
        if isinstance(item, ast.Step) and item.form in ("act", "player_verb_step") and \
                item.args[0] is not None and item.args[0].form == "you" and carried is None:
            if item.form == "act":
                item = attrs.evolve(item, args=(None,) + tuple(item.args[1:]))
            else:
                item = ast.Step("verb_step", item.args[1:], item.span)
            link = attrs.evolve(link, args=(item,) + tuple(link.args[1:]))
        if isinstance(item, ast.Step):
            carried = ast.with_subject(item, carried)[1]
        out.append(link)
    return out


def they_and_them(sentences) -> tuple:
    """ "They" and "them" read by what comes before them in the text:

    - "Choose 2 Creatures your Rival controls. They can't attack this turn":
      after a step of yours on cards, "they" before "can't" is those cards
      (as before "get" and "gain": see they_change_step), not a player;
    - "If your Rival controls 2 Creatures, they draw a card": "they" doing a
      step is the player the condition named (no step named "they" yet);
    - "Your Rival may discard a card. If they don't, deal 2 damage to them":
      after "If they do" / "If they don't", "them" where damage goes is that
      player, whom the condition just named "they" (no card was acted on):
      the player the step before named ("your Rival"), written out, since
      in a step of yours "that player" would be you;
    - "Whenever your Rival casts a Sorcery, deal 1 damage to them": after a
      trigger on another player's event, "them" where damage goes (no card
      acted on yet) is that player, as "they" is."""
    out, before = [], None
    for sentence in sentences:
        links, after_they_did, condition_player = [], False, None
        event_player = None
        for link in sentence.args:
            item = link.args[0]
            if isinstance(item, ast.Condition) and item.form == "when" and \
                    isinstance(item.args[0], ast.Event) and item.args[0].form == "player_event" \
                    and isinstance(item.args[0].args[0], ast.Player) and \
                    item.args[0].args[0].form != "you":
                event_player = ast.Player("that_player", (), None)
                before = None
            elif isinstance(item, ast.Condition) and item.form == "if_" and \
                    item.args[0].form in ("they_do", "they_dont"):
                after_they_did = True
            elif isinstance(item, ast.Condition) and item.form == "if_" and \
                    item.args[0].args and isinstance(item.args[0].args[0], ast.Player) and \
                    item.args[0].args[0].form in _NAMED_AGAIN:
                # "If your Rival controls 2 Creatures, they draw a card"
                condition_player = item.args[0].args[0]
            elif isinstance(item, ast.Step):
                if condition_player is not None and item.form in ("act", "player_verb_step") \
                        and item.args[0] is not None and item.args[0].form == "that_player":
                    item = attrs.evolve(item, args=(attrs.evolve(
                        condition_player, span=item.args[0].span),) + tuple(item.args[1:]))
                if item.form == "player_cannot" and item.args[0].form == "that_player" and \
                        item.args[0].span is not None and _acts_on_cards(before):
                    player, capability, *suffixes = item.args
                    item = ast.Step("state_change", (
                        ast.Selector("them", (), player.span),
                        ast.Statement("cannot", (capability,), capability.span),
                        tuple(suffixes)), item.span)
                elif after_they_did:
                    item = _damage_to_the_player_before(item, before)
                elif event_player is not None and not _acts_on_cards(before):
                    item = _damage_to(item, event_player)
                before = item
            if item is not link.args[0]:
                link = attrs.evolve(link, args=(item,) + tuple(link.args[1:]))
            links.append(link)
        out.append(attrs.evolve(sentence, args=tuple(links)))
    return tuple(out)


def _acts_on_cards(step) -> bool:
    """A step of the acting player's done to cards ("Choose 2 Creatures",
    "Create 2 tokens", "They get +1 power")."""
    if not isinstance(step, ast.Step):
        return False
    if step.form == "state_change":
        return isinstance(step.args[0], ast.Selector)
    if step.form != "act":
        return False
    subject, _, action, _ = step.args
    return (subject is None or subject.form == "you") and bool(action.args) and \
        isinstance(action.args[0], ast.Selector)


# players a later step may name again as they are written: the same player
# wherever the step is ("your Rival", not "that player" or "their Rival")
_NAMED_AGAIN = ("rival", "an_opponent", "turn_player")


def _damage_to_the_player_before(step, before):
    """ "Your Rival may discard a card. If they don't, deal 2 damage to them":
    the damage goes to the player who did the step before ("your Rival")."""
    if not isinstance(before, ast.Step) or before.form != "act":
        return step
    player = before.args[0]
    if player is None or player.form not in _NAMED_AGAIN:
        return step
    return _damage_to(step, player)


def _damage_to(step, player):
    """A step dealing damage to "them", dealing it to ``player`` instead."""
    if step.form != "act" or step.args[2].form not in ("deal", "deal_measured"):
        return step
    action = step.args[2]
    target = action.args[-1]
    if not (isinstance(target, ast.Selector) and target.form == "them"):
        return step
    action = attrs.evolve(action, args=action.args[:-1] + (
        attrs.evolve(player, span=target.span),))
    return attrs.evolve(step, args=step.args[:2] + (action,) + step.args[3:])
