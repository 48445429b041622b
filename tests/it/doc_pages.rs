//! Each page of README.md and docs/ whose examples are run, one test a page (so a
//! failure names its page); how a page is checked is in `docs.rs`.

use crate::docs::check_page;

#[test]
fn readme_examples_print_what_they_show() {
    check_page("README.md");
}

#[test]
fn guide_index_examples_print_what_they_show() {
    check_page("docs/README.md");
}

#[test]
fn games_and_rules_examples_print_what_they_show() {
    check_page("docs/guide/games-and-rules.md");
}

#[test]
fn multi_heap_examples_print_what_they_show() {
    check_page("docs/guide/multi-heap-games-and-pass.md");
}

#[test]
fn tables_examples_print_what_they_show() {
    check_page("docs/guide/tables-and-solve.md");
}

#[test]
fn verify_examples_print_what_they_show() {
    check_page("docs/guide/verify-and-criteria.md");
}

#[test]
fn claims_examples_print_what_they_show() {
    check_page("docs/guide/claims-and-check.md");
}

#[test]
fn take_and_break_examples_print_what_they_show() {
    check_page("docs/guide/take-and-break-and-multisets.md");
}

#[test]
fn hexadecimal_examples_print_what_they_show() {
    check_page("docs/guide/hexadecimal-games.md");
}

#[test]
fn grundy_examples_print_what_they_show() {
    check_page("docs/guide/grundy-and-periods.md");
}

#[test]
fn genus_examples_print_what_they_show() {
    check_page("docs/guide/genus.md");
}

#[test]
fn quotients_examples_print_what_they_show() {
    check_page("docs/guide/quotients.md");
}

#[test]
fn sweeps_examples_print_what_they_show() {
    check_page("docs/guide/sweeps.md");
}

#[test]
fn plots_examples_print_what_they_show() {
    check_page("docs/guide/plots.md");
}

#[test]
fn moves_and_play_examples_print_what_they_show() {
    check_page("docs/guide/moves-and-play.md");
}

#[test]
fn classes_and_split_examples_print_what_they_show() {
    check_page("docs/guide/classes-and-split.md");
}

#[test]
fn contests_examples_print_what_they_show() {
    check_page("docs/guide/contests.md");
}

#[test]
fn default_suite_examples_print_what_they_show() {
    check_page("docs/guide/default-suite.md");
}

#[test]
fn outputs_and_safety_examples_print_what_they_show() {
    check_page("docs/guide/outputs-and-safety.md");
}

#[test]
fn python_examples_print_what_they_show() {
    check_page("docs/guide/python.md");
}

#[test]
fn library_examples_print_what_they_show() {
    check_page("docs/guide/library.md");
}

#[test]
fn atlas_examples_print_what_they_show() {
    check_page("docs/guide/atlas.md");
}

#[test]
fn atlas_site_examples_print_what_they_show() {
    check_page("docs/guide/atlas-site.md");
}
