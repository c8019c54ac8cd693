//! The rules pages under `docs/rules/` held to the code, so they cannot drift apart:
//! every event xpgn plays has its page, whose header says what its `EventInfo` says and
//! whose rulings are those the event follows; every ruling a page defines is shown by a
//! fixture; and no document of the project points outside the repository.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

use xpgn::command::EventLabel;
use xpgn::rules::Variant;
use xpgn::rules::event::EventInfo;
use xpgn::rules::events::ALL;
use xpgn::rules::events::catalogue::{self, Support};

/// The page of the Event Chess meta rules, which defines every EC ruling.
const META_PAGE: &str = "docs/rules/event-chess.md";

/// The index of the rules pages.
const INDEX: &str = "docs/rules/README.md";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Files under `dir` (from the repository root), recursively, as paths from the root.
fn files_under(dir: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut pending = vec![root().join(dir)];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display())) {
            let path = entry.unwrap().path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let relative = path.strip_prefix(root()).unwrap();
                out.push(relative.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out.sort();
    out
}

/// The Markdown documents of the project: the two at the root and everything under docs/.
fn documents() -> Vec<String> {
    let mut docs = vec!["README.md".to_owned(), "ARCHITECTURE.md".to_owned()];
    docs.extend(
        files_under("docs")
            .into_iter()
            .filter(|path| path.ends_with(".md")),
    );
    docs
}

/// The header block of an event page: the row under `| Number | Name | Type | Condition |`.
fn header(page: &str, text: &str) -> [String; 4] {
    let mut lines = text.lines().map(str::trim);
    lines
        .find(|line| *line == "| Number | Name | Type | Condition |")
        .unwrap_or_else(|| panic!("{page}: no `| Number | Name | Type | Condition |` header"));
    let _separator = lines.next();
    let row = lines
        .next()
        .unwrap_or_else(|| panic!("{page}: header without a row"));
    let cells: Vec<String> = row
        .trim_matches('|')
        .split('|')
        .map(|cell| cell.trim().to_owned())
        .collect();
    cells
        .try_into()
        .unwrap_or_else(|cells| panic!("{page}: header row {cells:?} is not four cells"))
}

/// Whether `id` looks like a ruling id: capitals, a hyphen, a number (`HP-3`, `SIP-7`).
fn is_ruling_id(id: &str) -> bool {
    id.split_once('-').is_some_and(|(prefix, number)| {
        !prefix.is_empty()
            && prefix.bytes().all(|b| b.is_ascii_uppercase())
            && !number.is_empty()
            && number.bytes().all(|b| b.is_ascii_digit())
    })
}

/// The rulings a page defines: list items that open with the id in bold (`- **HP-3** ...`).
fn defined_ids(page: &str, text: &str) -> Vec<String> {
    let mut ids = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("- **") else {
            continue;
        };
        let Some((id, _)) = rest.split_once("**") else {
            continue;
        };
        if is_ruling_id(id) {
            assert!(
                !ids.iter().any(|known| known == id),
                "{page} defines {id} twice"
            );
            ids.push(id.to_owned());
        }
    }
    ids
}

/// Whether `text` holds `word` with no letter, digit or `_` right before or after it
/// (`LK-1` is not in `LK-10`).
fn has_word(text: &str, word: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(word).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(is_word)
            && !text[at + word.len()..].chars().next().is_some_and(is_word)
    })
}

fn event_pages() -> Vec<(&'static EventInfo, String)> {
    ALL.iter()
        .map(|event| {
            let info = event.info();
            assert!(
                root().join(info.page).is_file(),
                "#{} {}: its page {} does not exist",
                info.number,
                info.name,
                info.page
            );
            (info, read(info.page))
        })
        .collect()
}

#[test]
fn every_event_page_says_what_its_info_says() {
    for (info, text) in event_pages() {
        let types: Vec<&str> = info.types.iter().map(|t| t.name()).collect();
        // `4*` for the early numbering's Portal Chess (PC-9).
        let expected = [
            EventLabel(info.number).to_string(),
            info.name.to_owned(),
            if types.is_empty() {
                "-".to_owned()
            } else {
                types.join(", ")
            },
            info.condition.to_string(),
        ];
        assert_eq!(
            header(info.page, &text),
            expected,
            "{}: the header (Number, Name, Type, Condition) differs from #{}'s EventInfo",
            info.page,
            info.number
        );
    }
}

#[test]
fn every_event_page_defines_the_rulings_its_event_follows() {
    let meta: BTreeSet<String> = defined_ids(META_PAGE, &read(META_PAGE))
        .into_iter()
        .collect();
    assert!(
        meta.iter().all(|id| id.starts_with("EC-")),
        "{META_PAGE} defines only the meta rules (EC-*): {meta:?}"
    );
    for (info, text) in event_pages() {
        let own: BTreeSet<&str> = info
            .rulings
            .iter()
            .copied()
            .filter(|id| !id.starts_with("EC-"))
            .collect();
        let defined: BTreeSet<String> = defined_ids(info.page, &text).into_iter().collect();
        let defined: BTreeSet<&str> = defined.iter().map(String::as_str).collect();
        assert_eq!(
            defined, own,
            "{}: the rulings defined on the page (`- **ID** ...` items) differ from #{}'s \
             EventInfo::rulings (EC ids aside)",
            info.page, info.number
        );
        for id in info.rulings.iter().filter(|id| id.starts_with("EC-")) {
            assert!(
                meta.contains(*id),
                "#{} follows {id}, which {META_PAGE} does not define",
                info.number
            );
        }
    }
}

#[test]
fn every_defined_ruling_is_shown_by_a_fixture() {
    let fixtures: Vec<(String, String)> = files_under("fixtures")
        .into_iter()
        .map(|path| {
            let bytes = fs::read(root().join(&path)).unwrap();
            (path, String::from_utf8_lossy(&bytes).into_owned())
        })
        .collect();
    let mut defined_on: BTreeMap<String, String> = BTreeMap::new();
    for page in files_under("docs/rules") {
        for id in defined_ids(&page, &read(&page)) {
            if let Some(other) = defined_on.insert(id.clone(), page.clone()) {
                panic!("{id} is defined on both {other} and {page}");
            }
        }
    }
    let uncited: Vec<&String> = defined_on
        .keys()
        .filter(|id| !fixtures.iter().any(|(_, text)| has_word(text, id)))
        .collect();
    assert!(
        uncited.is_empty(),
        "rulings that no file under fixtures/ cites: {uncited:?}"
    );
}

#[test]
fn the_index_lists_every_event_and_variant() {
    let index = read(INDEX);
    for event in ALL {
        let info = event.info();
        let file = Path::new(info.page).file_name().unwrap().to_string_lossy();
        let link = format!("]({file})");
        let row = index
            .lines()
            .find(|line| line.contains(&link))
            .unwrap_or_else(|| panic!("{INDEX} does not link {file}"));
        let condition = info.condition.to_string();
        assert!(
            row.contains(&format!("#{} {}", EventLabel(info.number), info.name))
                && row.contains(&condition),
            "{INDEX}: the line linking {file} should name `#{} {}` and its Condition \
             `{condition}`: {row}",
            EventLabel(info.number),
            info.name
        );
    }
    for variant in Variant::built_in() {
        assert!(
            has_word(&index, &format!("`{}`", variant.slug)),
            "{INDEX} does not name the variant `{}`",
            variant.slug
        );
    }
}

/// The text of a Markdown document outside code: fenced blocks and inline code spans
/// become blanks, so what they show is not read as a link.
fn outside_code(text: &str) -> String {
    let mut out = String::new();
    let mut fenced = false;
    for line in text.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if !fenced {
            let mut in_code = false;
            for c in line.chars() {
                if c == '`' {
                    in_code = !in_code;
                } else if !in_code {
                    out.push(c);
                }
            }
        }
        out.push('\n');
    }
    out
}

/// The targets of the inline links (`[text](target)`) and link definitions
/// (`[name]: target`) of a document.
fn link_targets(text: &str) -> Vec<String> {
    let text = outside_code(text);
    let mut targets = Vec::new();
    for (at, _) in text.match_indices("](") {
        let rest = &text[at + 2..];
        if let Some(end) = rest.find(')') {
            let target = rest[..end].split_whitespace().next().unwrap_or("");
            targets.push(target.to_owned());
        }
    }
    for line in text.lines() {
        let line = line.trim_start();
        if let Some(rest) = line.strip_prefix('[')
            && let Some((label, target)) = rest.split_once("]:")
            && !label.is_empty()
            && !label.contains(['[', ']'])
        {
            targets.push(target.split_whitespace().next().unwrap_or("").to_owned());
        }
    }
    targets
}

/// Where a relative link from `document` leads, from the repository root; `None` when it
/// climbs out of the repository.
fn resolve(document: &str, target: &str) -> Option<PathBuf> {
    let path = target.split('#').next().unwrap_or("");
    let mut at: Vec<String> = Path::new(document)
        .parent()
        .unwrap()
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    for component in Path::new(path).components() {
        match component {
            Component::Normal(part) => at.push(part.to_string_lossy().into_owned()),
            Component::CurDir => {}
            Component::ParentDir => {
                at.pop()?;
            }
            Component::RootDir | Component::Prefix(_) => return None,
        }
    }
    Some(at.iter().collect())
}

#[test]
fn every_link_of_the_documents_stays_in_the_repository() {
    let mut problems = Vec::new();
    for document in documents() {
        for target in link_targets(&read(&document)) {
            if target.starts_with("https://") || target.starts_with("http://") {
                continue;
            }
            if target.is_empty() || target.contains(':') {
                problems.push(format!(
                    "{document}: `{target}` is neither a public web address nor a path in the repository"
                ));
                continue;
            }
            if target.starts_with('#') {
                continue;
            }
            match resolve(&document, &target) {
                Some(path) if root().join(&path).exists() => {}
                Some(path) => problems.push(format!(
                    "{document}: `{target}` leads to {}, which does not exist",
                    path.display()
                )),
                None => problems.push(format!(
                    "{document}: `{target}` leads out of the repository"
                )),
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Texts outside the repository that the documents must not send readers to: the
/// project's working notes live beside the repository, not in it.
const OUTSIDE: [&str; 6] = [
    "shared/spec",
    "shared/seeds",
    "spec/rulings.md",
    "spec/notation.md",
    "spec/cli.md",
    "spec/events.md",
];

/// What `xpgn --help` and every `xpgn COMMAND --help` print.
fn help_texts() -> Vec<(String, String)> {
    let help = |args: &[&str]| -> String {
        let output = Command::new(env!("CARGO_BIN_EXE_xpgn"))
            .args(args)
            .output()
            .unwrap();
        assert!(output.status.success(), "xpgn {args:?} failed");
        String::from_utf8(output.stdout).unwrap()
    };
    let top = help(&["--help"]);
    let commands: Vec<String> = top
        .lines()
        .skip_while(|line| !line.starts_with("Commands:"))
        .skip(1)
        .take_while(|line| line.starts_with("  "))
        .filter_map(|line| line.split_whitespace().next())
        .filter(|command| *command != "help")
        .map(str::to_owned)
        .collect();
    assert!(commands.len() > 5, "no commands found in:\n{top}");
    let mut texts = vec![("xpgn --help".to_owned(), top)];
    for command in commands {
        let text = help(&[&command, "--help"]);
        texts.push((format!("xpgn {command} --help"), text));
    }
    texts
}

/// Where `text` sends its reader outside the repository.
fn outside_references(text: &str) -> Vec<String> {
    let mut found: Vec<String> = OUTSIDE
        .iter()
        .filter(|needle| text.contains(*needle))
        .map(|needle| (*needle).to_owned())
        .collect();
    // The tests read the optional corpus beside the repository when it is there, and the
    // README may say so: that is no link, and nothing a reader is sent to for the rules.
    for (at, _) in text.match_indices("../shared") {
        if !text[at..].starts_with("../shared/corpus") {
            found.push(
                text[at..]
                    .split_whitespace()
                    .next()
                    .unwrap_or("")
                    .to_owned(),
            );
        }
    }
    found
}

#[test]
fn no_document_or_help_text_points_outside_the_repository() {
    let mut problems = Vec::new();
    let documents = documents().into_iter().map(|path| {
        let text = read(&path);
        (path, text)
    });
    for (name, text) in documents.chain(help_texts()) {
        for reference in outside_references(&text) {
            problems.push(format!("{name} mentions `{reference}`"));
        }
    }
    for file in files_under("src/cli") {
        if read(&file).contains("../shared") {
            problems.push(format!("{file} mentions `../shared`"));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_checks_read_pages_as_intended() {
    let page = "| Number | Name | Type | Condition |\n| --- | --- | --- | --- |\n\
                | 5 | Hidden passage | - | none |\n\n- **HP-1** a ruling\n  - **HP-2** nested\n\
                - **Note** not an id\n- plain **HP-3**\n- **SIP-7** another\n";
    assert_eq!(header("page", page), ["5", "Hidden passage", "-", "none"]);
    assert_eq!(defined_ids("page", page), ["HP-1", "SIP-7"]);
    assert!(has_word("see LK-10.", "LK-10"));
    assert!(!has_word("see LK-10.", "LK-1"));
    assert!(!has_word("SEC-1", "EC-1"));
    assert!(has_word("(EC-1..EC-4)", "EC-1"));
    let doc = "[a](x.md#y) `[b](code.md)` [c](https://example.org) [d]: ../z.md\n\
               ```\n[e](fenced.md)\n```\n";
    assert_eq!(link_targets(doc), ["x.md#y", "https://example.org"]);
    assert_eq!(link_targets("[d]: ../z.md \"title\""), ["../z.md"]);
    assert_eq!(
        resolve("docs/rules/a.md", "../../fixtures/passage/"),
        Some(PathBuf::from("fixtures/passage"))
    );
    assert_eq!(resolve("docs/rules/a.md", "../../../shared/spec"), None);
    assert_eq!(resolve("README.md", "/etc/passwd"), None);
}

#[test]
fn the_readme_names_every_event_not_played_yet() {
    let readme = read("README.md");
    // The row goes once every event is played, and must come back with the first one
    // that is not.
    let row = readme
        .lines()
        .find(|line| line.starts_with("| the catalogue's other events"))
        .unwrap_or_default();
    for (number, name, support) in catalogue::events() {
        let number = EventLabel(number);
        let named = row.contains(&format!("#{number} {name},"))
            || row.contains(&format!("#{number} {name} "));
        assert_eq!(
            named,
            support == Support::NotYet,
            "README.md's row of events not played yet and #{number} {name} ({support:?})"
        );
    }
}
