"""A value said only inside the name the question quotes is no answer (issue 21: the er pipeline's reader,
which answers with retrieved text, had "Northope Hub" accepted as the town of 'Northope Hub')."""

from __future__ import annotations

import pytest

from ragdx.evaluate.judges import make_judge
from ragdx.evaluate.records import JudgeItem


@pytest.mark.parametrize("judge", ["contains", "cascade"])
@pytest.mark.parametrize("query,gold,response,right", [
    ("Which town is 'Northope Hub' in?", "Northope", "Northope Hub", False),
    ("Which town is 'Northope Hub' in?", "Northope", "northope hub", False),
    ("What's the city of 'Wexcombe University Press'?", "Wexcombe", "© Wexcombe University Press.", False),
    # near misses: the value said outside the name, or the name not holding the value, are judged as before
    ("Which town is 'Northope Hub' in?", "Northope", "Northope Hub is in Northope.", True),
    ("Which town is 'Northope Hub' in?", "Northope", "It's in Northope.", True),
    ("What's the city of 'Wexcombe University Press'?", "Wexcombe", "Wexcombe", True),
    ("Who is the contact of 'Ana Trujillo Emparedados'?", "Ana Trujillo", "Ana Trujillo", True),
])
def test_a_value_inside_the_question_s_own_name_is_no_answer(judge, query, gold, response, right):
    assert make_judge(judge).judge(JudgeItem(query, [[gold]], response)).correct is right
