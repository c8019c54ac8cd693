//! The grammar files and the parser cannot drift apart: every production of
//! `grammar/*.ebnf` carries examples, and each example goes through the parser of its
//! entry (`move`, `pgn`, `command`, `transcript`) with the verdict it states.

use std::path::Path;

use xpgn::command::parse_commands;
use xpgn::diagnostic::Diagnostic;
use xpgn::notation::Notation;

struct Example {
    file: String,
    line: usize,
    ok: bool,
    entry: String,
    text: String,
}

/// `\n`, `\r`, `\uFEFF` and `\\` in example texts.
fn unescape(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(i) = rest.find('\\') {
        out.push_str(&rest[..i]);
        let after = &rest[i + 1..];
        let (decoded, len) = if after.starts_with("uFEFF") {
            ("\u{feff}", 5)
        } else {
            match after.chars().next() {
                Some('n') => ("\n", 1),
                Some('r') => ("\r", 1),
                Some('\\') => ("\\", 1),
                _ => ("\\", 0),
            }
        };
        out.push_str(decoded);
        rest = &after[len..];
    }
    out.push_str(rest);
    out
}

/// The productions (name, line) and examples of one grammar file.
fn read_grammar(path: &Path) -> (Vec<(String, usize)>, Vec<Example>) {
    let text = std::fs::read_to_string(path).unwrap();
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let mut productions = Vec::new();
    let mut examples = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if let Some((name, _)) = line.split_once(" =")
            && !name.is_empty()
            && name.chars().all(|c| c.is_ascii_lowercase() || c == ' ')
        {
            productions.push((name.to_owned(), i + 1));
        }
        let verdict = if let Some(rest) = line.strip_prefix("(* ok ") {
            Some((true, rest))
        } else {
            line.strip_prefix("(* bad ").map(|rest| (false, rest))
        };
        if let Some((ok, rest)) = verdict {
            let (entry, body) = rest.split_once(": ").expect("`ENTRY: TEXT`");
            let body = body.rsplit_once(" *)").expect("ends with ` *)`").0;
            examples.push(Example {
                file: file.clone(),
                line: i + 1,
                ok,
                entry: entry.to_owned(),
                text: unescape(body),
            });
        }
    }
    (productions, examples)
}

fn errors(diagnostics: &[Diagnostic]) -> usize {
    diagnostics.iter().filter(|d| d.is_error()).count()
}

/// Whether the parser accepts the example, or why the entry is unknown.
fn accepts(example: &Example) -> Result<bool, String> {
    let text = &example.text;
    Ok(match example.entry.as_str() {
        "move" => Notation::parse(text).is_ok_and(|n| {
            // Suffixes print check mark first; everything else exactly as written.
            let printed = n.to_string();
            printed == *text || (text.ends_with('+') && printed.len() == text.len())
        }),
        "pgn" => {
            let games = xpgn::pgn::parse_str(text);
            !games.is_empty() && games.iter().all(|g| errors(&g.diagnostics) == 0)
        }
        "command" => {
            let (commands, diagnostics) = parse_commands(text, 0);
            !commands.is_empty() && errors(&diagnostics) == 0
        }
        "transcript" => errors(&xpgn::transcript::parse_str(text).diagnostics) == 0,
        other => return Err(format!("unknown entry `{other}`")),
    })
}

#[test]
fn every_production_has_an_example_and_every_example_holds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("grammar");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "ebnf"))
        .collect();
    files.sort();
    let mut failures = Vec::new();
    let mut checked = 0;
    for path in &files {
        let (productions, examples) = read_grammar(path);
        for (k, (name, line)) in productions.iter().enumerate() {
            let next = productions.get(k + 1).map_or(usize::MAX, |p| p.1);
            if !examples
                .iter()
                .any(|e| e.ok && e.line > *line && e.line < next)
            {
                failures.push(format!(
                    "{}:{line}: production `{name}` has no ok example",
                    path.display()
                ));
            }
        }
        for example in &examples {
            checked += 1;
            match accepts(example) {
                Ok(accepted) if accepted == example.ok => {}
                Ok(_) => failures.push(format!(
                    "grammar/{}:{}: {} example {:?} is {} by the parser",
                    example.file,
                    example.line,
                    if example.ok { "ok" } else { "bad" },
                    example.text,
                    if example.ok { "refused" } else { "accepted" },
                )),
                Err(e) => failures.push(format!("grammar/{}:{}: {e}", example.file, example.line)),
            }
        }
    }
    assert_eq!(
        files.len(),
        4,
        "notation, pgn, command and transcript grammars"
    );
    assert!(checked > 100, "only {checked} examples");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
