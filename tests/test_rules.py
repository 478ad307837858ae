"""Rule sets: typed coercion, bounds, variant files, and the order they apply in."""

import pytest

from simulator.contract.errors import BalanceError
from simulator.contract.rules import build_rules, load_variant, parse_sets
from tests.fake_game import FakeRules


def test_defaults_and_options_table():
    names = [o.name for o in FakeRules.options()]
    assert names == ["bias", "draw", "extra_length", "mode", "cap"]
    cap = FakeRules.option_info("cap")
    assert (cap.type, cap.default, cap.lo, cap.hi) == ("int", 50, 1, 1000)
    assert cap.allowed() == "an integer >= 1 and <= 1000"
    assert FakeRules.option_info("mode").allowed() == "one of plain, fancy"


def test_set_coerces_each_type():
    rules, name = build_rules(FakeRules, sets=["bias=2.5", "cap=7", "mode=fancy"])
    assert (rules.bias, rules.cap, rules.mode) == (2.5, 7, "fancy")
    assert isinstance(rules.cap, int)
    assert rules.changed() == {"bias": 2.5, "cap": 7, "mode": "fancy"}
    assert name == "bias=2.5,cap=7,mode=fancy"


@pytest.mark.parametrize(
    "pair, words",
    [
        ("cap=7.5", "rule 'cap' got '7.5'; allowed: an integer >= 1 and <= 1000"),
        ("cap=0", "(out of bounds)"),
        ("draw=1.5", "allowed: a number >= 0 and <= 1"),
        ("mode=odd", "allowed: one of plain, fancy"),
        ("bias=abc", "rule 'bias' got 'abc'"),
        ("nope=1", "unknown rule 'nope' for fake; known rules: bias, draw"),
        ("bias", "--set expects key=value"),
    ],
)
def test_bad_set_values_name_the_problem(pair, words):
    with pytest.raises(BalanceError, match=None) as err:
        build_rules(FakeRules, sets=[pair])
    assert words in str(err.value)
    assert "\n" not in str(err.value)


def test_variant_file_then_set(tmp_path):
    f = tmp_path / "v.toml"
    f.write_text('name = "heavy seat"\n[rules]\nbias = 3\ncap = 9\n')
    rules, name = build_rules(FakeRules, variant=f, sets=["cap=11"])
    assert name == "heavy seat"
    assert (rules.bias, rules.cap) == (3.0, 11)  # the file first, then --set


@pytest.mark.parametrize(
    "text, words",
    [
        ("name = \n", "is not valid TOML"),
        ('name = "x"\nrules = 3\n', "[rules] must be a table"),
        ('name = "x"\nextra = 1\n', "unknown key(s) extra"),
        ('name = "x"\n[rules]\ncap = "many"\n', "rule 'cap' got 'many'"),
        ('name = "x"\n[rules]\ncap = 2.5\n', "rule 'cap' got 2.5"),
        ('name = ""\n', "name must be non-empty text"),
        (
            'name = "x"\n[rules]\nbais = 1\n',
            "bad.toml': unknown rule 'bais' for fake; did you mean",
        ),
    ],
)
def test_malformed_variant_files(tmp_path, text, words):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(BalanceError) as err:
        build_rules(FakeRules, variant=f)
    assert words in str(err.value)


def test_missing_variant_file(tmp_path):
    with pytest.raises(BalanceError, match="does not exist"):
        load_variant(tmp_path / "missing.toml")


def test_variant_name_defaults_to_file_stem(tmp_path):
    f = tmp_path / "cheap.toml"
    f.write_text("[rules]\nbias = 1\n")
    assert load_variant(f) == ("cheap", {"bias": 1})


def test_bool_and_tuple_options():
    from dataclasses import dataclass

    from simulator.contract.rules import RuleSet, option

    @dataclass(frozen=True)
    class R(RuleSet):
        game_id = "r"
        flag: bool = option(False, "a switch", "s")
        values: tuple[int, ...] = option((1, 2), "list", "s", lo=0, hi=9)

    rules, _ = build_rules(R, sets=["flag=yes", "values=3,4,5"])
    assert rules.flag is True and rules.values == (3, 4, 5)
    with pytest.raises(BalanceError, match="comma-separated list of ints"):
        build_rules(R, sets=["values=3,40"])
    with pytest.raises(BalanceError, match="true or false"):
        build_rules(R, sets=["flag=maybe"])
    engine = rules.to_engine()
    assert engine.flag is True and list(engine.values) == [3, 4, 5]


def test_parse_sets_keeps_equals_in_value():
    assert parse_sets(["a=b=c"]) == {"a": "b=c"}


def test_an_unknown_rule_of_a_long_list_names_the_closest_few():
    from simulator.games.caza_tesoros.rules import Rules

    with pytest.raises(BalanceError) as err:
        build_rules(Rules, sets=["nonexistent_rule=3"])
    message = str(err.value)
    named = message.split("the closest names are ")[1].split(" (")[0].split(", ")
    assert len(named) == 3 and all(n in {i.name for i in Rules.options()} for n in named)
    assert message.endswith(f"(balance rules caza-tesoros lists all {len(Rules.options())})")
    with pytest.raises(BalanceError, match="closest names are level1_cost, level2_cost, "):
        build_rules(Rules, sets=["cost_of_level=3"])
