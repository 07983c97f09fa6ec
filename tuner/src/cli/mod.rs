//! The command line of `kurier-tune`: every command's arguments, one file
//! per command, and what each command does with them.

pub mod values;
