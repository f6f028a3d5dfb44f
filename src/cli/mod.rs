//! The `lians-score` command line, shared by the native CLI
//! (`src/bin/lians-score`) and the package's CLI (`js/cli.mjs` through
//! `crates/wasm/src/cli.rs`): one grammar ([`COMMANDS`], parsed by [`run`]) and the
//! command logic, as pure functions from arguments and file *texts* to output
//! text and an exit status. Each front end only supplies a file reader and
//! writes what [`run`] returns, so both accept the same flags, print the same
//! bytes and exit the same way by construction.
//!
//! ## Grammar
//!
//! `lians-score COMMAND [ARG | OPTION]...`, options anywhere after the command:
//!
//! * `--name VALUE` or `--name=VALUE` for an option that takes a value;
//!   `--name` alone for a switch (a switch given a value is an error);
//! * `--content ID=TEXT` and `--given FILE` may repeat (they accumulate, in
//!   order); any other option given twice keeps its last value;
//! * `-` is standard input; `--` ends the options (later `--x` are files);
//! * an unknown option, a missing value or a wrong number of files is a usage
//!   error: exit status 2, with the message on standard error;
//! * `lians-score --help`, `lians-score COMMAND --help`, `lians-score --version`.
//!
//! To add an option, add a [`Flag`] to its command's list; to add a command,
//! add a [`Command`] to [`COMMANDS`] (the usage text is generated from them).

pub mod replay;

use crate::json::{self, Object, Value};
use crate::{api, receipt, Error, ErrorCode, Result};

/// Exit status: everything scored / verified valid.
pub const OK: u8 = 0;
/// Exit status: an input failed to score, or a verification found failures.
pub const INVALID: u8 = 1;

/// Exit status: a usage error, an unreadable file, or a replay line that is not a case.
pub const USAGE_ERROR: u8 = 2;

/// A command's output lines (each ending in `\n`) and its exit status.
pub struct Outcome {
    /// The output lines, each ending in `\n`.
    pub output: String,
    /// The exit status ([`OK`] or [`INVALID`]).
    pub status: u8,
}

fn usage(message: String) -> Error {
    Error::new(ErrorCode::InvalidValue, "", message)
}

/// `score`: `text` is one JSON document (an object, or an array of inputs)
/// or JSON Lines; `function` names the API function (`score_memory`,
/// `evaluate`, `tokenize_for_scoring`, `detect_risk_tags`, `risk_spans`
/// (offsets in code points), `is_too_vague`, `rescore_review_item`,
/// `sort_candidates`). One output line per input; an
/// input that fails gives an error line and exit status [`INVALID`]. A JSONL
/// line that is not JSON is a usage-level error (`label` names the input).
pub fn score(text: &str, function: &str, label: &str) -> Result<Outcome> {
    let call: fn(&Value) -> Result<Value> = match function {
        "score_memory" => api::score_memory,
        "evaluate" => api::evaluate_admission,
        "tokenize_for_scoring" => api::tokenize_for_scoring,
        "detect_risk_tags" => api::detect_risk_tags,
        "risk_spans" => |v| api::risk_spans(v, crate::admission::Offsets::CodePoints),
        "is_too_vague" => api::is_too_vague,
        "rescore_review_item" => api::rescore_review_item,
        "sort_candidates" => api::sort_candidates,
        other => return Err(usage(format!("unknown function {other:?}"))),
    };
    let inputs: Vec<Value> = match json::parse(text) {
        Ok(Value::Array(items)) if function != "sort_candidates" => items,
        Ok(one) => vec![one],
        Err(whole) => {
            let mut items = Vec::new();
            for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
                let item =
                    json::parse(line).map_err(|e| usage(format!("{label}: {whole}; as JSONL, line {}: {e}", n + 1)))?;
                items.push(item);
            }
            items
        }
    };
    if function == "score_memory" {
        // The batch scorer: the same lines, the query tokenized once per distinct query.
        let (mut output, mut status) = (String::new(), OK);
        for chunk in inputs.chunks(crate::api::limits::MAX_ARRAY_ITEMS) {
            let batch = api::score_candidates(&Value::Null, chunk)?;
            if batch.errors() > 0 {
                status = INVALID;
            }
            output.push_str(&batch.to_jsonl());
        }
        return Ok(Outcome { output, status });
    }
    let mut status = OK;
    let mut output = String::new();
    for input in &inputs {
        let out = call(input).unwrap_or_else(|e| {
            status = INVALID;
            e.to_json()
        });
        output.push_str(&json::to_json_string(&out));
        output.push('\n');
    }
    Ok(Outcome { output, status })
}

/// Build a `given`/`options` object from `(key, JSON text)` pairs; the key
/// `""` merges the members of a `--given FILE` object in order.
pub fn options<'a>(pairs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Result<Value> {
    let mut o = Object::new();
    for (key, value) in pairs {
        let parsed = json::parse(value)?;
        if key.is_empty() {
            let Value::Object(g) = parsed else { return Err(usage("--given must be a JSON object".into())) };
            for (k, v) in g.iter() {
                o.insert(k.clone(), v.clone());
            }
        } else {
            o.insert(key, parsed);
        }
    }
    Ok(Value::Object(o))
}

/// Which receipt a wire text holds: a `lians.context-receipt*` schema (of
/// the body's `receipt`, or of a bare receipt) is context; anything else recall.
pub fn detect_kind(wire: &str) -> &'static str {
    let parsed = json::parse(wire).ok();
    let schema = parsed
        .as_ref()
        .and_then(|v| v.get("receipt").or(Some(v)))
        .and_then(|r| r.get("schema"))
        .and_then(Value::as_str)
        .unwrap_or("");
    if schema.starts_with("lians.context-receipt") {
        "context"
    } else {
        "recall"
    }
}

/// `verify`: `kind` is `recall`, `context`, or `None` to detect it.
///
/// Goes through [`api`], so the CLIs apply exactly the input caps of the JS
/// API ([`crate::api::limits`]): an over-cap wire or `given` prints an
/// `{"error": "too_large", ...}` line and exits [`INVALID`].
pub fn verify(wire: &str, kind: Option<&str>, given: &Value) -> Result<Outcome> {
    // Caps first: detecting the kind parses the wire.
    if let Err(e) = crate::api::limits::check_text(wire, "the response") {
        return Ok(error_outcome(&e));
    }
    let kind = kind.unwrap_or_else(|| detect_kind(wire));
    let result = match kind {
        "recall" => api::verify_recall_receipt(wire, given),
        "context" => api::verify_context_receipt(wire, given),
        other => return Err(usage(format!("--kind must be recall or context, not {other:?}"))),
    };
    Ok(match result {
        Ok(v) => report_value(v),
        Err(e) => error_outcome(&e),
    })
}

/// `verify-pack` (through [`api`], with its input caps).
pub fn verify_pack(wire: &str, options: &Value) -> Outcome {
    match api::verify_evidence_pack(wire, options) {
        Ok(v) => report_value(v),
        Err(e) => error_outcome(&e),
    }
}

fn error_outcome(e: &Error) -> Outcome {
    Outcome { output: format!("{}\n", json::to_json_string(&e.to_json())), status: INVALID }
}

fn report_value(v: Value) -> Outcome {
    let valid = matches!(v.get("valid"), Some(Value::Bool(true)));
    Outcome { output: format!("{}\n", json::to_json_string(&v)), status: if valid { OK } else { INVALID } }
}

/// `audit`: one JSON report line; status [`OK`] when consistent, [`INVALID`]
/// on any finding, and also [`INVALID`] with an `{"error",...}` line when the
/// body cannot be audited (as `score` does for an input that fails).
pub fn audit(wire: &str, query: Option<&str>) -> Outcome {
    let mut options = Object::new();
    if let Some(q) = query {
        options.push_unique("query", Value::str(q));
    }
    audit_options(wire, &Value::Object(options))
}

/// [`audit`] with the whole options object (`query`, `request`, ...).
pub fn audit_options(wire: &str, options: &Value) -> Outcome {
    match api::audit_recall(wire, options) {
        Ok(report) => {
            let consistent = report.get("consistent") == Some(&Value::Bool(true));
            Outcome {
                output: format!("{}\n", json::to_json_string(&report)),
                status: if consistent { OK } else { INVALID },
            }
        }
        Err(e) => Outcome { output: format!("{}\n", json::to_json_string(&e.to_json())), status: INVALID },
    }
}

// ---------------------------------------------------------------- grammar

/// Where an option's value goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum To {
    /// A command setting the command reads itself (`--kind`, `--fn`).
    Setting,
    /// `given`/`options` member `key`: the text as a JSON string (a switch: `true`).
    Given(&'static str),
    /// `given` member `key`: the named file's text as a JSON string (`trim`: without surrounding whitespace).
    GivenFile(&'static str, bool),
    /// A JSON object file whose members are merged into `given`, in order.
    GivenMerge,
    /// `ID=TEXT`: member `ID` of `given.contents`.
    Content,
}

/// One option of a command.
#[derive(Clone, Copy, Debug)]
pub struct Flag {
    /// The name after `--`.
    pub name: &'static str,
    /// The value's placeholder in the usage text; `None` for a switch.
    pub value: Option<&'static str>,
    /// Where the value goes.
    pub to: To,
    /// One line of help.
    pub help: &'static str,
}

impl Flag {
    const fn value(name: &'static str, value: &'static str, to: To, help: &'static str) -> Flag {
        Flag { name, value: Some(value), to, help }
    }
    const fn switch(name: &'static str, key: &'static str, help: &'static str) -> Flag {
        Flag { name, value: None, to: To::Given(key), help }
    }
}

/// How many file arguments a command takes.
#[derive(Clone, Copy, Debug)]
pub enum Files {
    /// Zero or one (default `-`, standard input).
    Optional,
    /// Exactly one.
    One,
    /// One or more.
    Many,
}

/// A parsed command line: the command's files, settings and `given` object.
pub struct Invocation {
    /// File arguments (`-` is standard input).
    pub files: Vec<String>,
    /// `(name, value)` of the [`To::Setting`] options; the last one wins.
    pub settings: Vec<(&'static str, String)>,
    /// The `given`/`options` object built from the other options.
    pub given: Value,
}

impl Invocation {
    /// The value of setting `name`, if given.
    pub fn setting(&self, name: &str) -> Option<&str> {
        self.settings.iter().rev().find(|(n, _)| *n == name).map(|(_, v)| v.as_str())
    }
}

/// Why a command stopped: a usage error (the help hint is printed) or
/// another failure (unreadable file, a replay line that is not a case).
#[derive(Debug)]
pub enum Stop {
    /// Bad arguments.
    Usage(String),
    /// Anything else that stops the command.
    Failed(String),
}

/// Reads a file argument's bytes (`-` is standard input); errors are messages.
pub type Reader<'a> = dyn FnMut(&str) -> std::result::Result<Vec<u8>, String> + 'a;

/// A command: its name, file arguments, options and handler.
pub struct Command {
    /// The subcommand name.
    pub name: &'static str,
    /// The file arguments' synopsis.
    pub args: &'static str,
    /// What it does, one line.
    pub summary: &'static str,
    /// How many files it takes.
    pub files: Files,
    /// Its options.
    pub flags: &'static [Flag],
    /// Runs it: appends to `out`, returns the exit status.
    pub run: fn(&Invocation, &mut Reader<'_>, &mut String) -> std::result::Result<u8, Stop>,
}

const GIVEN: Flag =
    Flag::value("given", "FILE", To::GivenMerge, "a JSON object of given fields (conformance `given` names)");
const INCLUDE_CANONICAL: Flag =
    Flag::switch("include-canonical", "include_canonical", "add the canonical text to the report");

/// Every command, in usage order.
pub const COMMANDS: &[Command] = &[
    Command {
        name: "score",
        args: "[FILE|-]",
        summary: "score a JSON object, an array or JSON Lines of inputs (one output line each)",
        files: Files::Optional,
        flags: &[Flag::value(
            "fn",
            "NAME",
            To::Setting,
            "score_memory (default), evaluate, tokenize_for_scoring, detect_risk_tags, risk_spans, is_too_vague, rescore_review_item, sort_candidates",
        )],
        run: run_score,
    },
    Command {
        name: "verify",
        args: "FILE|-",
        summary: "verify a recall/context response body or bare receipt",
        files: Files::One,
        flags: &[
            Flag::value("kind", "recall|context", To::Setting, "the receipt kind (default: from its schema)"),
            Flag::value("query", "Q", To::Given("query"), "the query you sent"),
            Flag::value("expected-sha256", "H", To::Given("expected_sha256"), "a pinned receipt hash"),
            Flag::value("content", "ID=TEXT", To::Content, "a memory's content (repeatable)"),
            Flag::value("context-text", "T", To::Given("context_text"), "the context text you received"),
            Flag::value("context-text-file", "F", To::GivenFile("context_text", false), "... read from a file"),
            Flag::value("recall-file", "F", To::GivenFile("recall_wire", false), "the underlying recall response body"),
            Flag::switch(
                "privacy-minimal",
                "privacy_minimal",
                "content hashes are privacy-minimal HMACs: skip comparing the body's contents with them",
            ),
            GIVEN,
            INCLUDE_CANONICAL,
        ],
        run: run_verify,
    },
    Command {
        name: "verify-pack",
        args: "FILE|-",
        summary: "verify an Evidence Pack v2",
        files: Files::One,
        flags: &[
            Flag::value("trusted-public-key", "B64", To::Given("trusted_public_key"), "the signer's Ed25519 public key"),
            Flag::value("trusted-public-key-file", "F", To::GivenFile("trusted_public_key", true), "... read from a file"),
            Flag::value("expected-key-id", "ID", To::Given("expected_key_id"), "the key id you expect"),
            Flag::switch("allow-unsigned", "allow_unsigned", "accept a pack without a signature"),
            GIVEN,
            INCLUDE_CANONICAL,
        ],
        run: run_verify_pack,
    },
    Command {
        name: "audit",
        args: "FILE|-",
        summary: "re-derive the server's scores from a recall response body (exit 0 consistent, 1 findings)",
        files: Files::One,
        flags: &[
            Flag::value(
                "query",
                "Q",
                To::Given("query"),
                "the query you sent (default: query_variants[0] if it hashes to query_sha256)",
            ),
        Flag::value(
            "request",
            "FILE",
            To::GivenFile("request", false),
            "the request you sent (JSON: the POST /v1/recall body, plus sent_at/received_at)",
        )],
        run: run_audit,
    },
    Command {
        name: "replay",
        args: "FILE.jsonl...",
        summary: "replay scoring vectors; prints {\"id\",\"actual\"} lines",
        files: Files::Many,
        flags: &[],
        run: run_replay,
    },
    Command {
        name: "verify-replay",
        args: "FILE.jsonl...",
        summary: "replay receipt cases; prints checker result lines",
        files: Files::Many,
        flags: &[],
        run: run_verify_replay,
    },
];

/// The usage text, generated from [`COMMANDS`].
pub fn usage_text() -> String {
    let mut u = String::from("usage: lians-score <command> [args] [options]\n\ncommands:\n");
    for c in COMMANDS {
        u.push_str(&format!("  {} {}\n      {}\n", c.name, c.args, c.summary));
        for f in c.flags {
            let head = match f.value {
                Some(v) => format!("--{} {v}", f.name),
                None => format!("--{}", f.name),
            };
            u.push_str(&format!("      {head:<34} {}\n", f.help));
        }
    }
    u.push_str(
        "  --version\n      print the version\n\n\
         Options take `--name VALUE` or `--name=VALUE`; `-` is standard input; `--` ends options.\n\
         Inputs are read as raw text (receipts must be: number spellings decide the hash).\n\
         Output is compact JSON, one line per result, the same bytes from the native and the npm CLI.\n\n\
         exit status: 0 ok/valid, 1 invalid input or failed verification, 2 usage error\n\n\
         `guard` (the verifying proxy) and `ledger` are commands of the npm CLI only\n\
         (npx lians-score guard --help, npx lians-score ledger --help).\n",
    );
    u
}

fn read_text(read: &mut Reader<'_>, path: &str) -> std::result::Result<String, Stop> {
    let bytes = read(path).map_err(Stop::Failed)?;
    String::from_utf8(bytes).map_err(|e| {
        Stop::Failed(format!("{path}: not valid UTF-8 (invalid byte at offset {})", e.utf8_error().valid_up_to()))
    })
}

/// Parse `args` (after the command name) by `command`'s grammar, reading
/// the files that options name.
pub fn parse(command: &Command, args: &[String], read: &mut Reader<'_>) -> std::result::Result<Invocation, Stop> {
    let mut inv = Invocation { files: Vec::new(), settings: Vec::new(), given: Value::Object(Object::new()) };
    let mut given = Object::new();
    let mut contents = Object::new();
    let mut i = 0;
    let mut options_done = false;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if options_done || arg == "-" || !arg.starts_with("--") {
            inv.files.push(arg.clone());
            continue;
        }
        if arg == "--" {
            options_done = true;
            continue;
        }
        let (name, inline) = match arg[2..].split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (&arg[2..], None),
        };
        let flag = command
            .flags
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| Stop::Usage(format!("{}: unknown option --{name}", command.name)))?;
        let value = match (flag.value, inline) {
            (None, Some(_)) => return Err(Stop::Usage(format!("--{name} takes no value"))),
            (None, None) => None,
            (Some(_), Some(v)) => Some(v),
            (Some(_), None) => match args.get(i) {
                Some(v) => {
                    i += 1;
                    Some(v.clone())
                }
                None => return Err(Stop::Usage(format!("--{name} needs a value"))),
            },
        };
        match (flag.to, value) {
            (To::Given(key), None) => given.insert(key, Value::Bool(true)),
            (To::Given(key), Some(v)) => given.insert(key, Value::str(v)),
            (To::Setting, Some(v)) => inv.settings.push((flag.name, v)),
            (To::GivenFile(key, trim), Some(path)) => {
                let text = read_text(read, &path)?;
                let text = if trim { text.trim().to_string() } else { text };
                given.insert(key, Value::str(text));
            }
            (To::GivenMerge, Some(path)) => {
                let text = read_text(read, &path)?;
                match json::parse(&text) {
                    Ok(Value::Object(g)) => {
                        for (k, v) in g.iter() {
                            given.insert(k.clone(), v.clone());
                        }
                    }
                    Ok(_) => return Err(Stop::Usage(format!("--{name} {path}: must be a JSON object"))),
                    Err(e) => return Err(Stop::Usage(format!("--{name} {path}: {e}"))),
                }
            }
            (To::Content, Some(v)) => match v.split_once('=') {
                Some((id, text)) if !id.is_empty() => contents.insert(id, Value::str(text)),
                _ => return Err(Stop::Usage(format!("--{name} needs ID=TEXT"))),
            },
            (_, None) => unreachable!("only To::Given flags are switches"),
        }
    }
    if !contents.is_empty() {
        // Into `given.contents` (kept in its place), or a new `contents` member.
        if !matches!(given.get("contents"), Some(Value::Object(_))) {
            given.insert("contents", Value::Object(Object::new()));
        }
        let members = given.into_members().into_iter().map(|(k, v)| match v {
            Value::Object(mut o) if k.as_str() == Some("contents") => {
                for (id, text) in contents.iter() {
                    o.insert(id.clone(), text.clone());
                }
                (k, Value::Object(o))
            }
            v => (k, v),
        });
        given = Object::from_unique(members.collect());
    }
    let n = inv.files.len();
    let ok = match command.files {
        Files::Optional => n <= 1,
        Files::One => n == 1,
        Files::Many => n >= 1,
    };
    if !ok {
        return Err(Stop::Usage(format!(
            "usage: lians-score {} {} (see lians-score {} --help)",
            command.name, command.args, command.name
        )));
    }
    if matches!(command.files, Files::Optional) && n == 0 {
        inv.files.push("-".into());
    }
    inv.given = Value::Object(given);
    Ok(inv)
}

/// What a command line printed and its exit status.
#[derive(Debug, PartialEq, Eq)]
pub struct Run {
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// The exit status ([`OK`], [`INVALID`] or [`USAGE_ERROR`]).
    pub status: u8,
}

/// Run one command line (`argv` without the program name); `read` supplies
/// file bytes. Never panics on any arguments.
///
/// ```
/// use lians_score::cli;
/// let mut read = |_: &str| Ok(br#"{"content":"hi","reference_time":"2026-08-01T00:00:00Z"}"#.to_vec());
/// let run = cli::run(&["score".into(), "--fn=score_memory".into(), "-".into()], &mut read);
/// assert_eq!(run.status, cli::OK);
/// assert!(run.stdout.starts_with("{\"importance_score\":"));
/// assert_eq!(cli::run(&["score".into(), "--nope".into()], &mut read).status, cli::USAGE_ERROR);
/// ```
pub fn run(argv: &[String], read: &mut Reader<'_>) -> Run {
    let usage = || usage_text();
    let done = |stdout: String, stderr: String, status: u8| Run { stdout, stderr, status };
    let Some(name) = argv.first() else { return done(String::new(), usage(), USAGE_ERROR) };
    match name.as_str() {
        "-h" | "--help" | "help" => return done(usage(), String::new(), OK),
        "-V" | "--version" => return done(format!("lians-score {}\n", env!("CARGO_PKG_VERSION")), String::new(), OK),
        _ => {}
    }
    let Some(command) = COMMANDS.iter().find(|c| c.name == name) else {
        return done(String::new(), format!("lians-score: unknown command {name}\n\n{}", usage()), USAGE_ERROR);
    };
    let args = &argv[1..];
    if args.iter().take_while(|a| *a != "--").any(|a| a == "--help" || a == "-h") {
        return done(command_usage(command), String::new(), OK);
    }
    let mut stdout = String::new();
    let result = parse(command, args, read).and_then(|inv| (command.run)(&inv, read, &mut stdout));
    match result {
        Ok(status) => done(stdout, String::new(), status),
        Err(Stop::Usage(m)) => done(stdout, format!("lians-score: {m}\n(see lians-score --help)\n"), USAGE_ERROR),
        Err(Stop::Failed(m)) => done(stdout, format!("lians-score: {m}\n"), USAGE_ERROR),
    }
}

fn command_usage(command: &Command) -> String {
    let all = usage_text();
    let start = all.find(&format!("\n  {} ", command.name)).map(|i| i + 1).unwrap_or(0);
    let rest = &all[start..];
    let end = rest[2..].find("\n  ").map(|i| i + 3).unwrap_or(rest.len());
    format!("usage: lians-score {} {} [options]\n\n{}", command.name, command.args, &rest[..end])
}

fn run_score(inv: &Invocation, read: &mut Reader<'_>, out: &mut String) -> std::result::Result<u8, Stop> {
    let path = &inv.files[0];
    let text = read_text(read, path)?;
    let function = inv.setting("fn").unwrap_or("score_memory");
    let outcome = score(&text, function, path).map_err(|e| Stop::Usage(e.message))?;
    out.push_str(&outcome.output);
    Ok(outcome.status)
}

fn run_verify(inv: &Invocation, read: &mut Reader<'_>, out: &mut String) -> std::result::Result<u8, Stop> {
    let wire = read_text(read, &inv.files[0])?;
    let outcome = verify(&wire, inv.setting("kind"), &inv.given).map_err(|e| Stop::Usage(e.message))?;
    out.push_str(&outcome.output);
    Ok(outcome.status)
}

fn run_verify_pack(inv: &Invocation, read: &mut Reader<'_>, out: &mut String) -> std::result::Result<u8, Stop> {
    let wire = read_text(read, &inv.files[0])?;
    let outcome = verify_pack(&wire, &inv.given);
    out.push_str(&outcome.output);
    Ok(outcome.status)
}

fn run_audit(inv: &Invocation, read: &mut Reader<'_>, out: &mut String) -> std::result::Result<u8, Stop> {
    let wire = read_text(read, &inv.files[0])?;
    let mut options = Object::new();
    if let Some(q) = inv.given.get("query") {
        options.push_unique("query", q.clone());
    }
    if let Some(text) = inv.given.get("request").and_then(Value::as_str) {
        match json::parse(text) {
            Ok(request) => options.push_unique("request", request),
            Err(e) => {
                out.push_str(&format!("{}\n", json::to_json_string(&e.under("/request").to_json())));
                return Ok(INVALID);
            }
        }
    }
    let outcome = audit_options(&wire, &Value::Object(options));
    out.push_str(&outcome.output);
    Ok(outcome.status)
}

fn run_replay(inv: &Invocation, read: &mut Reader<'_>, out: &mut String) -> std::result::Result<u8, Stop> {
    for path in &inv.files {
        let text = read_text(read, path)?;
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            out.push_str(&crate::cli::replay::scoring_line(line));
            out.push('\n');
        }
    }
    Ok(OK)
}

fn run_verify_replay(inv: &Invocation, read: &mut Reader<'_>, out: &mut String) -> std::result::Result<u8, Stop> {
    for path in &inv.files {
        let text = read_text(read, path)?;
        for (n, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let case = json::parse(line).map_err(|e| Stop::Failed(format!("{path}:{}: {e}", n + 1)))?;
            let row =
                receipt::replay::replay_case(&case).map_err(|e| Stop::Failed(format!("{path}:{}: {e}", n + 1)))?;
            out.push_str(&json::to_json_string(&row));
            out.push('\n');
        }
    }
    Ok(OK)
}
