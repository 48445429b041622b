"""nimtab.genus: the genus of heaps and sums of heaps, as ``nimtab genus`` computes it."""

import pytest

import nimtab


def test_genus_of_kayles_heaps_matches_the_command_and_winning_ways():
    rows = nimtab.genus("octal:0.77", max_heap=9, progress=False)
    assert [r["genus"] for r in rows] == [
        "0", "1", "2", "3", "1", "4^146", "3", "2", "1^13", "4^046"
    ]
    assert rows[5] == {
        "genus": "4^146",
        "grundy": 4,
        "misere_grundy": 1,
        "gammas": [1, 4, 6],
        "tame": False,
    }
    assert rows[0]["gammas"] == [1, 2, 0] and rows[0]["tame"]


def test_genus_of_a_sum_of_heaps():
    got = nimtab.genus("octal:0.77", position=[3, 5, 7], progress=False)
    assert got["genus"] == "5^75"
    assert (got["grundy"], got["misere_grundy"], got["tame"]) == (5, 7, False)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"game": "nim", "max_heap": 3}, "a genus needs a take-and-break game of heaps"),
        ({"game": "octal:0.77", "max_heap": -1}, "max_heap must be from 0 to 65536, got -1"),
        ({"game": "octal:0.77", "position": [1] * 65}, "from 1 to 64 heaps, got 65"),
        ({"game": "octal:0.77"}, "genus needs max_heap or position"),
    ],
)
def test_genus_refuses_bad_arguments_with_their_message(kwargs, message):
    with pytest.raises(ValueError, match=message):
        nimtab.genus(progress=False, **kwargs)
