//! The layout of a forum thread pasted from the browser (`spec/notation.md` section 6):
//! which lines are page furniture (post headers with avatar captions, author names,
//! dates and post numbers, "Sort:"), who wrote each post, which lines quote another
//! post, and who plays which colour.
//!
//! This is layout only: what the lines of a post mean (moves, events, chatter) is for the
//! transcript reader to say. Text without post headers is one post by nobody, and reads
//! as a plain transcript.

use std::collections::HashSet;

/// What one line of a pasted thread is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Layout {
    /// The page's title and the lines before the first post.
    Title,
    /// Page furniture: an avatar caption, the author's name, a date, a post number, a
    /// button label.
    Chrome,
    /// `Name wrote:` and the quoted lines after it; `on_page` where they repeat a post
    /// of the page (whose moves are read there).
    Quote { on_page: bool },
    /// The post's own text.
    Text,
}

/// One line of the thread with its layout and the post it belongs to.
#[derive(Clone, Copy, Debug)]
pub(super) struct ThreadLine<'a> {
    pub layout: Layout,
    /// The index of the post in [`Thread::authors`]; `None` before the first post or
    /// where the text has no post headers.
    pub post: Option<usize>,
    pub text: &'a str,
}

/// A pasted thread: every line's layout, the posts' authors, the players.
#[derive(Debug, Default)]
pub(super) struct Thread<'a> {
    pub lines: Vec<ThreadLine<'a>>,
    /// The author of each post, in order.
    pub authors: Vec<&'a str>,
    /// The players the title names, White first (`Martin0 - vickalan #2`).
    pub title_players: Option<[&'a str; 2]>,
}

impl<'a> Thread<'a> {
    /// Whether the text had post headers at all.
    pub fn has_posts(&self) -> bool {
        !self.authors.is_empty()
    }

    pub fn author(&self, line: &ThreadLine<'_>) -> Option<&'a str> {
        line.post.map(|post| self.authors[post])
    }
}

/// Lays out `lines` (trimmed, empty ones included so indices match the caller's).
pub(super) fn lay_out<'a>(lines: &[&'a str]) -> Thread<'a> {
    let mut thread = Thread::default();
    let mut post: Option<usize> = None;
    let mut quote = QuoteState::Outside;
    let mut seen: HashSet<&str> = HashSet::new();
    let mut index = 0;
    while index < lines.len() {
        if let Some((author, header_len)) = post_header(lines, index) {
            thread.authors.push(author);
            post = Some(thread.authors.len() - 1);
            for text in &lines[index..index + header_len] {
                thread.lines.push(ThreadLine {
                    layout: Layout::Chrome,
                    post,
                    text,
                });
            }
            index += header_len;
            quote = QuoteState::Outside;
            continue;
        }
        let text = lines[index];
        let first_text = thread.lines.iter().all(|l| l.text.is_empty());
        let layout = if post.is_none() && first_text && !text.is_empty() {
            thread.title_players = title_players(text);
            Layout::Title
        } else if is_button(text) {
            Layout::Chrome
        } else if quote_header(text).is_some() {
            quote = QuoteState::Opened;
            Layout::Quote { on_page: true }
        } else {
            quote = quote.next(text, &seen);
            match quote {
                QuoteState::Outside => Layout::Text,
                QuoteState::Unknown => Layout::Quote { on_page: false },
                QuoteState::Opened | QuoteState::Repeating => Layout::Quote { on_page: true },
            }
        };
        if layout == Layout::Text {
            seen.insert(text);
        }
        thread.lines.push(ThreadLine { layout, post, text });
        index += 1;
    }
    // Text without any post header is a plain transcript: its first line is no title.
    if !thread.has_posts() {
        for line in &mut thread.lines {
            if line.layout == Layout::Title {
                line.layout = Layout::Text;
            }
        }
    }
    thread
}

/// Where a quote stands. A quote is the lines after `Name wrote:` that repeat text
/// posted earlier in the thread; where the quoted post is not on the page, it runs to
/// the first blank line after its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum QuoteState {
    Outside,
    /// Right after `Name wrote:`.
    Opened,
    /// Inside a quote whose lines were found earlier in the thread.
    Repeating,
    /// Inside a quote of text not on the page.
    Unknown,
}

impl QuoteState {
    fn next(self, line: &str, seen: &HashSet<&str>) -> QuoteState {
        match self {
            QuoteState::Outside => QuoteState::Outside,
            QuoteState::Opened if line.is_empty() => QuoteState::Opened,
            QuoteState::Opened if seen.contains(line) => QuoteState::Repeating,
            QuoteState::Opened => QuoteState::Unknown,
            QuoteState::Repeating if line.is_empty() || seen.contains(line) => {
                QuoteState::Repeating
            }
            QuoteState::Unknown if !line.is_empty() => QuoteState::Unknown,
            _ => QuoteState::Outside,
        }
    }
}

/// `Name wrote:` (also `@Name wrote:` and `Name said:`): the name quoted.
pub(super) fn quote_header(line: &str) -> Option<&str> {
    let rest = line
        .strip_suffix("wrote:")
        .or_else(|| line.strip_suffix("said:"))?;
    let name = rest.trim_end().trim_start_matches('@');
    is_username(name).then_some(name)
}

/// A post header at `index`: `Avatar of Name`, or a user name with a date within the
/// next two lines; with the name repeated, a flair, the date and the post number (`#12`)
/// after it. Returns the author and how many lines the header takes.
fn post_header<'a>(lines: &[&'a str], index: usize) -> Option<(&'a str, usize)> {
    let first = lines[index];
    let (author, mut end) = if let Some(name) = first.strip_prefix("Avatar of ") {
        let name = name.trim();
        is_username(name).then_some((name, index + 1))?
    } else if is_username(first)
        && lines[index + 1..]
            .iter()
            .take(3)
            .filter(|l| !l.is_empty())
            .take(2)
            .any(|l| is_date(l))
    {
        (first, index + 1)
    } else {
        return None;
    };
    let mut dated = false;
    while let Some(line) = lines.get(end) {
        let chrome = line.is_empty()
            || *line == author
            || is_post_number(line)
            || (!dated && is_flair(line))
            || is_date(line);
        if !chrome {
            break;
        }
        dated |= is_date(line);
        end += 1;
    }
    // Blank lines after the header belong to the post.
    while end > index + 1 && lines[end - 1].is_empty() {
        end -= 1;
    }
    Some((author, end - index))
}

/// A forum user name: one word of letters, digits, `_` and `-`, 3 to 25 long, with a
/// letter in it (so no move number or result passes), that no move or square spells.
pub(super) fn is_username(word: &str) -> bool {
    (3..=25).contains(&word.len())
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        && word.chars().any(|c| c.is_ascii_alphabetic())
        && !word.starts_with('-')
        && crate::notation::Notation::parse(word).is_err()
        && !is_button(word)
}

/// `Dec 3, 2017`, `Dec 3, 2017, 10:04 AM`, `3 yrs ago`, `Yesterday`, `2017-12-03`.
fn is_date(line: &str) -> bool {
    const MONTHS: [&str; 12] = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ];
    const UNITS: [&str; 8] = ["sec", "min", "hr", "hour", "day", "wk", "week", "mo"];
    let lower = line.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|w| !w.is_empty())
        .collect();
    match words.as_slice() {
        ["yesterday" | "today" | "just", ..] if words.len() <= 4 => true,
        [month, day, year, ..]
            if MONTHS.iter().any(|m| month.starts_with(m))
                && day.parse::<u8>().is_ok()
                && year.len() == 4
                && year.parse::<u16>().is_ok() =>
        {
            true
        }
        [count, unit, "ago"]
            if count.parse::<u32>().is_ok()
                && (UNITS.iter().any(|u| unit.starts_with(u)) || unit.starts_with("y")) =>
        {
            true
        }
        [iso] => {
            let parts: Vec<&str> = iso.split('-').collect();
            parts.len() == 3 && parts.iter().all(|p| p.parse::<u16>().is_ok())
        }
        _ => false,
    }
}

/// `#12`: a post's number.
fn is_post_number(line: &str) -> bool {
    line.strip_prefix('#')
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// What a forum shows next to a name: a rating in brackets, a membership title, the
/// count of a badge (`| 2`).
fn is_flair(line: &str) -> bool {
    const TITLES: [&str; 6] = [
        "staff",
        "moderator",
        "diamond",
        "platinum",
        "gold",
        "premium",
    ];
    let lower = line.to_ascii_lowercase();
    (line.starts_with('(') && line.ends_with(')') && line.len() <= 8)
        || line.starts_with("| ")
        || TITLES.contains(&lower.as_str())
        || lower.starts_with("forum ")
}

/// The labels of a forum page's buttons and sort menu, alone on their line.
fn is_button(line: &str) -> bool {
    const BUTTONS: [&str; 12] = [
        "sort:",
        "oldest",
        "newest",
        "most liked",
        "reply",
        "quote",
        "report",
        "like",
        "likes",
        "share",
        "edit",
        "delete",
    ];
    BUTTONS.contains(&line.to_ascii_lowercase().as_str())
}

/// The two players a thread's title names, White first: `Martin0 - vickalan #2`,
/// `Event Chess game: Alice vs Bob`, `Alice vs. Bob (game 3)`.
/// One side may be a team (`Martin0 - the world`): see [`is_team`].
pub(super) fn title_players(line: &str) -> Option<[&str; 2]> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let separator = words
        .iter()
        .position(|w| matches!(w.to_ascii_lowercase().as_str(), "-" | "vs" | "vs." | "v"))?;
    let before = &words[..separator];
    let after = &words[separator + 1..];
    let team = |words: &[&str]| -> Option<&str> {
        let first = words.first()?;
        let last = words.last()?.trim_end_matches([',', '!', '.']);
        let from = first.as_ptr() as usize - line.as_ptr() as usize;
        let to = last.as_ptr() as usize - line.as_ptr() as usize + last.len();
        Some(&line[from..to]).filter(|name| is_team(name))
    };
    // The team's words end at the separator, or start after it.
    let white = (1..=before.len().min(3))
        .rev()
        .find_map(|n| team(&before[before.len() - n..]))
        .or_else(|| before.last().map(|w| w.trim_end_matches(',')))?;
    let black = (1..=after.len().min(3))
        .rev()
        .find_map(|n| team(&after[..n]))
        .or_else(|| after.first().map(|w| w.trim_end_matches(',')))?;
    let named = |name: &str| is_username(name) || is_team(name);
    (named(white) && named(black) && white != black && !(is_team(white) && is_team(black)))
        .then_some([white, black])
}

/// A side played by whoever posts for it (`the world`, `everyone`): a vote game, where
/// every poster but the other side's player moves for the team.
pub(super) fn is_team(name: &str) -> bool {
    matches!(
        name.to_ascii_lowercase().as_str(),
        "the world" | "world" | "everyone" | "the community" | "community" | "the forum"
    )
}

/// The colours a post line gives players: `@Name will play white`, `Name plays black`,
/// `White: Name`, `I'll take white, @Name has black` (`I` is the author). `known` are
/// the thread's names.
pub(super) fn colour_statements<'a>(
    line: &'a str,
    author: Option<&'a str>,
    known: &[&str],
) -> Vec<(&'a str, bool)> {
    let words: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || ",;!".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    let name_of = |word: &'a str| -> Option<&'a str> {
        let word = word.trim_matches(|c: char| "@.:()'\"".contains(c));
        let lower = word.to_ascii_lowercase();
        if matches!(
            lower.as_str(),
            "i" | "i'll" | "i’ll" | "i'm" | "me" | "myself"
        ) {
            return author;
        }
        let mentioned = word.len() < line.len() && line.contains(&format!("@{word}"));
        (known.contains(&word) || mentioned && is_username(word)).then_some(word)
    };
    let mut found = Vec::new();
    let mut named_from = 0;
    for (at, word) in words.iter().enumerate() {
        let colour = word.trim_end_matches(['.', ':', ')']).to_ascii_lowercase();
        if colour != "white" && colour != "black" {
            continue;
        }
        let white = colour == "white";
        // `White: Name` names the player after the colour; otherwise the name comes
        // first, after the previous statement's colour.
        let after = word
            .ends_with(':')
            .then(|| words.get(at + 1).and_then(|w| name_of(w)))
            .flatten();
        let before = || {
            words[named_from.max(at.saturating_sub(5))..at]
                .iter()
                .rev()
                .find_map(|w| name_of(w))
        };
        if let Some(name) = after.or_else(before) {
            found.push((name, white));
        }
        named_from = at + 1;
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layouts(text: &str) -> (Thread<'_>, Vec<(Layout, Option<String>, String)>) {
        let lines: Vec<&str> = text.lines().map(str::trim).collect();
        let thread = lay_out(&lines);
        let out = thread
            .lines
            .iter()
            .map(|l| {
                (
                    l.layout,
                    thread.author(l).map(str::to_owned),
                    l.text.to_owned(),
                )
            })
            .collect();
        (thread, out)
    }

    #[test]
    fn posts_have_authors_and_headers_are_chrome() {
        let text = "Event Chess game: Alice77 - bob_b #2\nSort:\nOldest\nAvatar of Alice77\nAlice77\nDec 3, 2017\n#1\n@bob_b will play black.\n1.e4\nbob_b\n3 yrs ago\n#2\nc5\n";
        let (thread, lines) = layouts(text);
        assert_eq!(thread.title_players, Some(["Alice77", "bob_b"]));
        assert_eq!(thread.authors, ["Alice77", "bob_b"]);
        let text_lines: Vec<(Option<String>, String)> = lines
            .iter()
            .filter(|(layout, ..)| *layout == Layout::Text)
            .map(|(_, author, text)| (author.clone(), text.clone()))
            .collect();
        assert_eq!(
            text_lines,
            [
                (Some("Alice77".into()), "@bob_b will play black.".into()),
                (Some("Alice77".into()), "1.e4".into()),
                (Some("bob_b".into()), "c5".into()),
            ]
        );
        assert_eq!(lines[1].0, Layout::Chrome, "Sort:");
        assert_eq!(lines[0].0, Layout::Title);
    }

    #[test]
    fn quotes_run_while_they_repeat_earlier_text_or_to_a_blank_line() {
        let text = "Avatar of Alice77\nAlice77\n#1\n1.e4\nnice day\nAvatar of bob_b\nbob_b\n#2\nAlice77 wrote:\n1.e4\nnice day\nc5\nAvatar of Alice77\nAlice77\n#3\ncarol_c wrote:\n2.Nf3 here\nstill quoted\n\n2.Nf3\n";
        let (_, lines) = layouts(text);
        let quoted: Vec<&str> = lines
            .iter()
            .filter(|(layout, ..)| matches!(layout, Layout::Quote { .. }))
            .map(|(.., text)| text.as_str())
            .collect();
        assert_eq!(
            quoted,
            [
                "Alice77 wrote:",
                "1.e4",
                "nice day",
                "carol_c wrote:",
                "2.Nf3 here",
                "still quoted"
            ]
        );
        let last = lines.last().unwrap();
        assert_eq!((last.0, last.2.as_str()), (Layout::Text, "2.Nf3"));
    }

    #[test]
    fn a_plain_transcript_is_one_post_by_nobody() {
        let (thread, lines) = layouts("Alice - Bob\n1.e4 e5\nNf3\n");
        assert!(!thread.has_posts());
        assert_eq!(thread.title_players, Some(["Alice", "Bob"]));
        assert_eq!(
            title_players("Event Chess: Martin0 - the world (game 2)"),
            Some(["Martin0", "the world"])
        );
        assert_eq!(
            title_players("The World vs Martin0"),
            Some(["The World", "Martin0"])
        );
        assert_eq!(title_players("me - the world - everyone"), None);
        assert!(
            lines
                .iter()
                .all(|(layout, author, _)| *layout == Layout::Text && author.is_none())
        );
    }

    #[test]
    fn names_dates_and_colours() {
        assert!(is_username("Martin0") && is_username("Bad_Dobby_Fischer"));
        assert!(!is_username("Nf3") && !is_username("1-0") && !is_username("Reply"));
        assert!(is_date("Dec 3, 2017") && is_date("Jan 12, 2018, 10:04 AM"));
        assert!(is_date("3 yrs ago") && is_date("2017-12-03") && is_date("Yesterday"));
        assert!(!is_date("1.e4 e5") && !is_date("3 knights ago"));
        assert_eq!(
            colour_statements("@vickalan will play white", Some("Martin0"), &[]),
            [("vickalan", true)]
        );
        assert_eq!(
            colour_statements("I'll take black, gl!", Some("Martin0"), &[]),
            [("Martin0", false)]
        );
        assert_eq!(
            colour_statements("I'll take white, @erin_e has black.", Some("dan"), &[]),
            [("dan", true), ("erin_e", false)]
        );
        assert_eq!(
            colour_statements("White: bob_b", None, &["bob_b"]),
            [("bob_b", true)]
        );
        assert_eq!(colour_statements("black to move", None, &[]), []);
        assert_eq!(
            title_players("Event Chess game: Martin0 vs. vickalan (game 2)"),
            Some(["Martin0", "vickalan"])
        );
        assert_eq!(title_players("1.e4 - a good move"), None);
    }
}
