//! `completions SHELL` and `man`: generated from the same clap definition as the parser, so
//! they never drift from the options.

use super::args::Cli;
use super::status::Fatal;
use clap::CommandFactory;
use clap_complete::Shell;
use std::io::{self, Write};

/// `sudoku-enum completions SHELL`: the completion script on stdout.
pub fn completions(shell: Shell) -> Result<u8, Fatal> {
    let mut command = Cli::command();
    // Made in memory first: `generate` panics where its writes fail (`| head`, a full disk).
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut command, "sudoku-enum", &mut script);
    let mut out = io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(0)
}

/// `sudoku-enum man`: the manual page (roff) on stdout: the overview, then a section for
/// each subcommand (its synopsis, description, options and examples).
pub fn man() -> Result<u8, Fatal> {
    let command = Cli::command();
    let man = clap_mangen::Man::new(command.clone());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    man.render_subcommands_section(&mut page)?;
    let mut extra = Vec::new();
    man.render_extra_section(&mut extra)?;
    page.extend(
        String::from_utf8_lossy(&extra)
            .replace(".SH EXTRA", ".SH EXAMPLES")
            .bytes(),
    );
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let name = format!("sudoku-enum {}", sub.get_name());
        let sub = sub.clone().bin_name(name.clone());
        let man = clap_mangen::Man::new(sub);
        let mut section = Vec::new();
        man.render_synopsis_section(&mut section)?;
        man.render_description_section(&mut section)?;
        man.render_options_section(&mut section)?;
        man.render_extra_section(&mut section)?;
        // The subcommand's sections become subsections of its own section.
        let section = String::from_utf8_lossy(&section)
            .replace(".SH EXTRA", ".SS EXAMPLES")
            .replace(".SH ", ".SS ");
        page.extend(format!(".SH \"{}\"\n", name.to_uppercase()).bytes());
        page.extend(section.bytes());
    }
    man.render_version_section(&mut page)?;
    let page = String::from_utf8_lossy(&page);
    let mut out = io::stdout().lock();
    out.write_all(no_fill_examples(&page).as_bytes())?;
    out.flush()?;
    Ok(0)
}

/// The page with the examples kept as written (roff no-fill: the columns line up) and the
/// subcommands named as they are typed (they are sections of this page, not pages of their
/// own).
fn no_fill_examples(page: &str) -> String {
    let mut out = String::with_capacity(page.len() + 256);
    let mut in_examples = false;
    let mut preludes = 0;
    for line in page.lines() {
        // Each section rendered alone starts with roff's prelude (`.ie`/`.el` defining Aq):
        // keep the first.
        if line.starts_with(".ie \\n(.g .ds Aq") || line.starts_with(".el .ds Aq") {
            preludes += 1;
            if preludes > 2 {
                continue;
            }
        }
        let heading = line.starts_with(".SH") || line.starts_with(".SS");
        if heading && in_examples {
            out.push_str(".fi\n");
            in_examples = false;
        }
        if let Some(rest) = line.strip_prefix("sudoku\\-enum\\-") {
            // A subcommand list entry: `sudoku\-enum\-count(1)`.
            out.push_str("sudoku\\-enum ");
            out.push_str(rest.strip_suffix("(1)").unwrap_or(rest));
        } else {
            out.push_str(line);
        }
        out.push('\n');
        if line == ".SH EXAMPLES" || line == ".SS EXAMPLES" {
            out.push_str(".nf\n");
            in_examples = true;
        }
    }
    if in_examples {
        out.push_str(".fi\n");
    }
    out
}
