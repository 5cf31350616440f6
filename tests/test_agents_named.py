"""Agents named on the command line (``--p1 random``): known names, a
setting after a colon, and clear problems for the rest."""

import pytest

from interpreter.agents import FirstLegalAgent, RandomAgent, agent_named
from interpreter.errors import CouldNotRun


def test_agents_are_made_from_their_names():
    assert isinstance(agent_named("random", 3), RandomAgent)
    assert isinstance(agent_named("First", 3), FirstLegalAgent)


def test_an_unknown_agent_is_named_with_the_ones_there_are():
    with pytest.raises(CouldNotRun) as err:
        agent_named("randmo", 1)
    problem = err.value.problems[0]
    assert problem.code == "E816"
    assert "random" in problem.render() and 'did you mean "random"?' in problem.render()


def test_an_agent_that_takes_no_setting_refuses_one():
    with pytest.raises(CouldNotRun) as err:
        agent_named("random:5", 1)
    assert err.value.problems[0].code == "E817"
