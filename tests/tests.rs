//! The one integration test binary (ripgrep's layout): each module covers one area.

mod util;

mod bad_input;
mod candidates;
mod cli;
mod cluster;
mod counts;
mod formats;
mod nine;
mod oracle;
mod props;
mod setter;
mod slurm;
mod terminal;
mod usage;
mod variants;
