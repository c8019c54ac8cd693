//! `xpgn lint`: everything `check` finds plus style rules, each with a stable code, a
//! default severity and documentation (`--explain`); rule selection from flags, an
//! `xpgn.yaml` found upward from each file (`config`) and `{xpgn: allow=...}` comments
//! in a game; and the edits `--fix` applies.

#[cfg(feature = "cli")]
pub(crate) mod config;
mod docs;
pub mod fix;
mod style;

use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

use memchr::memmem;

use crate::diagnostic::{Code, Diagnostic, Severity};
use crate::pgn::{Game, Item, ParsedGame};
#[cfg(feature = "cli")]
use crate::replay::{PlayedAsRead, check_game_played};
use crate::replay::{Replay, check_game_respelling};
use crate::rules::Variants;
use crate::span::Source;
use crate::span::Spanned;

pub use docs::{RuleDoc, explain};
pub use style::Scope;

/// Which codes a file is linted for, and at which severity.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Selection {
    /// `None`: every code.
    pub select: Option<HashSet<Code>>,
    pub ignore: HashSet<Code>,
    pub severity: HashMap<Code, Severity>,
}

impl Selection {
    pub fn selects(&self, code: Code) -> bool {
        self.select.as_ref().is_none_or(|s| s.contains(&code)) && !self.ignore.contains(&code)
    }
}

/// Reads a list of rule names (`all` for every code) as given on the command line or in
/// a configuration file.
pub fn codes(names: &[String]) -> Result<HashSet<Code>, String> {
    let mut codes = HashSet::new();
    for name in names {
        if name == "all" {
            codes.extend(Code::ALL);
            continue;
        }
        match Code::from_name(name) {
            Some(code) => {
                codes.insert(code);
            }
            None => return Err(unknown_rule(name)),
        }
    }
    Ok(codes)
}

/// The message for a rule name xpgn does not have, with the closest it has.
pub fn unknown_rule(name: &str) -> String {
    let closest = Code::ALL
        .iter()
        .map(|c| (strsim::levenshtein(name, c.name()), c.name()))
        .min()
        .filter(|(distance, _)| *distance <= 3);
    match closest {
        Some((_, near)) => format!("unknown rule `{name}` (did you mean `{near}`?)"),
        None => format!("unknown rule `{name}` (`xpgn lint --explain all` lists them)"),
    }
}

/// Lints one game: replays it as `check` does, adds the style findings, drops what the
/// selection and the game's `{xpgn: allow=...}` comments leave out, and sets severities.
/// The returned replay's diagnostics are the findings, in file order.
pub fn lint_game(
    parsed: &ParsedGame,
    source: Source<'_>,
    variants: &Variants,
    selection: &Selection,
    scope: Scope,
) -> Replay {
    lint_game_reusing(parsed, source, variants, selection, scope, Vec::new())
}

/// [`lint_game`] writing the findings into `list`'s room (it is emptied first): a run
/// over many games hands each the list of the game before, whose findings are reported,
/// rather than allocating one for nearly every game.
pub fn lint_game_reusing(
    parsed: &ParsedGame,
    source: Source<'_>,
    variants: &Variants,
    selection: &Selection,
    scope: Scope,
    mut list: Vec<Diagnostic>,
) -> Replay {
    // The moves written as their canonical SAN need no finding, nor any recording.
    let mut replay = check_game_respelling(parsed, variants, source);
    list.clear();
    let found = style::findings(&parsed.game, &replay, source, scope, list);
    if scope.fixable {
        fix_check_marks(&mut replay);
    }
    replay.played = None;
    select(&parsed.game, source, selection, &mut replay, found);
    replay
}

/// [`lint_game_reusing`] of a game whose moves [`PlayAsRead::spelling`] played as they
/// were read: what that replay concluded and wrote down of their spellings.
///
/// [`PlayAsRead::spelling`]: crate::replay::PlayAsRead::spelling
#[cfg(feature = "cli")]
pub(crate) fn lint_game_played(
    parsed: &ParsedGame,
    played: &PlayedAsRead,
    source: Source<'_>,
    (selection, scope): (&Selection, Scope),
    mut list: Vec<Diagnostic>,
) -> Replay {
    // A wrong check mark makes that replay give up: `fix_check_marks` has nothing to do.
    let mut replay = check_game_played(parsed, played);
    list.clear();
    let spellings = played.spellings.as_deref();
    let found = style::findings_played(&parsed.game, spellings, source, scope, list);
    select(&parsed.game, source, selection, &mut replay, found);
    replay
}

/// The findings of `check` (in `replay`) and of style (`found`) together, less what the
/// selection and the game's `{xpgn: allow=...}` comments leave out, at the selection's
/// severities and in file order. In place: a `Replay` passed by value is copied whole.
fn select(
    game: &Game,
    source: Source<'_>,
    selection: &Selection,
    replay: &mut Replay,
    mut found: Vec<Diagnostic>,
) {
    let (allowed, mut bad) = if may_allow(game, source) {
        allowed(game)
    } else {
        Default::default()
    };
    found.append(&mut bad);
    // Most games have no diagnostic of `check`: the findings' list becomes the list.
    if replay.diagnostics.is_empty() {
        replay.diagnostics = found;
    } else {
        replay.diagnostics.append(&mut found);
    }
    replay
        .diagnostics
        .retain(|d| selection.selects(d.code) && !allowed.contains(&d.code));
    for d in &mut replay.diagnostics {
        if let Some(severity) = selection.severity.get(&d.code) {
            d.severity = *severity;
        }
    }
    replay.diagnostics.sort_by_key(|d| d.span.offset);
}

/// A wrong `+` or `#` (`check`'s warning) is mended by writing the move as SAN does.
fn fix_check_marks(replay: &mut Replay) {
    let Some(played) = &replay.played else {
        return;
    };
    for d in &mut replay.diagnostics {
        if d.code != Code::WrongCheckMark {
            continue;
        }
        if let Some(m) = played.moves.iter().find(|m| m.span.offset == d.span.offset) {
            // The assessment written on the move (`Qh5+!?`) stays.
            let assessment = d
                .at_move
                .as_ref()
                .and_then(|at| crate::notation::Notation::parse(&at.written).ok())
                .and_then(|n| n.assessment)
                .map_or("", |a| a.as_str());
            d.fix = Some(Box::new(crate::diagnostic::Fix {
                span: d.span,
                replacement: format!("{}{assessment}", m.san).into(),
            }));
        }
    }
}

/// The codes a game's `{xpgn: allow=a,b}` comments allow, and a finding for every name
/// in them that is no code.
fn allowed(game: &Game) -> (HashSet<Code>, Vec<Diagnostic>) {
    let mut codes = HashSet::new();
    let mut bad = Vec::new();
    let mut visit = |items: &[Spanned<Item>]| {
        walk(items, &mut |item| {
            let text = match &item.node {
                Item::Comment(comment) => comment.text.as_str(),
                Item::Prose(text) => text,
                _ => return,
            };
            {
                for name in allow_lists(text) {
                    match (name, Code::from_name(name)) {
                        ("all", _) => codes.extend(Code::ALL.into_iter().filter(|c| c.is_style())),
                        (_, Some(code)) => {
                            codes.insert(code);
                        }
                        (_, None) => bad.push(
                            Diagnostic::new(
                                Code::BadSuppression,
                                item.span,
                                format!("`xpgn: allow` names {}", unknown_rule(name)),
                                "allows nothing",
                            )
                            .with_help(
                                "name the codes as `xpgn lint` prints them, separated by commas",
                            ),
                        ),
                    }
                }
            }
        });
    };
    visit(&game.prelude);
    visit(&game.moves);
    visit(&game.trailing);
    (codes, bad)
}

/// What starts an allow list. Its searcher is built once: a file's every game is searched.
static ALLOW_KEY: LazyLock<memmem::Finder<'static>> =
    LazyLock::new(|| memmem::Finder::new("xpgn:"));

/// Whether the text `game` was read from, comments before the tags and after the result
/// included, holds an `xpgn:` at all: nearly no game does, and one search of its bytes
/// spares a walk over every item. Where the spans do not lie in `source`, it may.
fn may_allow(game: &Game, source: Source<'_>) -> bool {
    // Only comments (and a transcript's prose) allow: a game with none, as most games of
    // an opening book, is not searched at all.
    if ![&game.prelude, &game.moves, &game.trailing]
        .into_iter()
        .any(|items| holds_comment(items))
    {
        return false;
    }
    let start = game.prelude.first().map_or(game.span.offset, |item| {
        item.span.offset.min(game.span.offset)
    });
    let end = game
        .trailing
        .last()
        .map_or(game.span.end(), |item| item.span.end().max(game.span.end()));
    let text = start
        .checked_sub(source.offset)
        .zip(end.checked_sub(source.offset))
        .and_then(|(from, to)| source.text.get(from..to));
    text.is_none_or(|text| ALLOW_KEY.find(text.as_bytes()).is_some())
}

/// The names listed after each `xpgn: allow=` in a comment (`a,b` or `a, b`), up to the
/// first word that does not continue the list.
fn allow_lists(text: &str) -> Vec<&str> {
    let mut names = Vec::new();
    for at in ALLOW_KEY.find_iter(text.as_bytes()) {
        let rest = text[at + ALLOW_KEY.needle().len()..].trim_start();
        let Some(list) = rest
            .strip_prefix("allow")
            .and_then(|r| r.trim_start().strip_prefix('='))
        else {
            continue;
        };
        let list = &list[..list.find(['}', '\n']).unwrap_or(list.len())];
        for chunk in list.split(',') {
            let mut words = chunk.split_whitespace();
            let Some(name) = words.next() else { break };
            names.push(name);
            if words.next().is_some() {
                break;
            }
        }
    }
    names
}

/// Whether `items` hold a comment or prose, in their variations too: what [`allowed`]
/// reads.
fn holds_comment(items: &[Spanned<Item>]) -> bool {
    items.iter().any(|item| match &item.node {
        Item::Comment(_) | Item::Prose(_) => true,
        Item::Variation(inner) => holds_comment(inner),
        _ => false,
    })
}

fn walk<'a>(items: &'a [Spanned<Item>], visit: &mut impl FnMut(&'a Spanned<Item>)) {
    for item in items {
        visit(item);
        if let Item::Variation(inner) = &item.node {
            walk(inner, visit);
        }
    }
}

/// Applies the fixes of `diagnostics` to `text` (which starts at byte `offset` of its
/// file). Fixes that overlap one already taken are left for the next run. Returns the
/// new text and how many fixes were applied.
pub fn apply_fixes<'a>(
    text: &str,
    offset: usize,
    diagnostics: impl IntoIterator<Item = &'a Diagnostic>,
) -> (String, usize) {
    let picked = pick_fixes(text, offset, diagnostics);
    (splice_text(text, &picked), picked.len())
}

/// The fixes of `diagnostics` that apply to `text` (at byte `offset` of its file), as
/// ranges of `text` and their replacements, in order and apart: one that overlaps one
/// already taken waits for the next round.
fn pick_fixes<'a>(
    text: &str,
    offset: usize,
    diagnostics: impl IntoIterator<Item = &'a Diagnostic>,
) -> Vec<(std::ops::Range<usize>, &'a str)> {
    let mut fixes: Vec<&crate::diagnostic::Fix> = diagnostics
        .into_iter()
        .filter_map(|d| d.fix.as_deref())
        .collect();
    fixes.sort_by_key(|f| (f.span.offset, f.span.len));
    fixes.dedup_by(|a, b| a.span.offset == b.span.offset && a.replacement == b.replacement);
    let mut picked = Vec::new();
    let mut at = 0;
    for fix in fixes {
        let Some(start) = fix.span.offset.checked_sub(offset) else {
            continue;
        };
        let end = start + fix.span.len;
        if start < at
            || end > text.len()
            || !text.is_char_boundary(start)
            || !text.is_char_boundary(end)
        {
            continue;
        }
        picked.push((start..end, &*fix.replacement));
        at = end;
    }
    picked
}

/// `text` with the picked fixes applied.
fn splice_text(text: &str, picked: &[(std::ops::Range<usize>, &str)]) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (range, replacement) in picked {
        out.push_str(&text[at..range.start]);
        out.push_str(replacement);
        at = range.end;
    }
    out.push_str(&text[at..]);
    out
}

#[cfg(test)]
mod tests;
