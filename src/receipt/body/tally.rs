//! [`Tally`]: the failures of one code in the body binding, counted, with
//! their pointers and messages built only for the failures a report lists.

use super::super::report::{pointer, CheckCode, ReportBuilder, Severity};
use crate::json::{Members, Ref};

/// Collects failures of one code with their pointers, and one summary pass.
/// Pointers are built only for failures (`at`, `compared_with` are closures).
pub(super) struct Tally {
    code: CheckCode,
    checked: usize,
    failed: usize,
}

impl Tally {
    pub(super) fn new(code: CheckCode) -> Tally {
        Tally { code, checked: 0, failed: 0 }
    }

    pub(super) fn check(
        &mut self,
        report: &mut ReportBuilder,
        ok: bool,
        at: impl FnOnce() -> String,
        compared_with: impl FnOnce() -> String,
        message: impl FnOnce() -> String,
    ) {
        self.checked += 1;
        if !ok {
            self.failed += 1;
            if report.lists_failures_of(self.code) {
                report.fail_against(self.code, &at(), &compared_with(), message());
            } else {
                report.omit(self.code, Severity::Error, at);
            }
        }
    }

    /// A failure when `bad`, and nothing otherwise: for the shape checks,
    /// which must not change the count a passing report prints.
    pub(super) fn fail_if(
        &mut self,
        report: &mut ReportBuilder,
        bad: bool,
        at: impl FnOnce() -> String,
        compared_with: impl FnOnce() -> String,
        message: impl FnOnce() -> String,
    ) {
        if bad {
            self.checked += 1;
            self.failed += 1;
            if report.lists_failures_of(self.code) {
                report.fail_against(self.code, &at(), &compared_with(), message());
            } else {
                report.omit(self.code, Severity::Error, at);
            }
        }
    }

    /// A `__proto__` member of `o` (at `at`) fails: `Object.assign({}, o)`,
    /// `{...o}` and `for…in` copies make it the copy's prototype, so a
    /// client may read attacker text from it that the receipt does not bind.
    pub(super) fn no_proto(
        &mut self,
        report: &mut ReportBuilder,
        o: Members<'_>,
        at: &dyn Fn() -> String,
        bound: &dyn Fn() -> String,
    ) {
        if let Some(v) = o.get_bytes(b"__proto__") {
            self.fail_if(
                report,
                true,
                || pointer(&at(), "__proto__"),
                bound,
                || {
                    format!(
                    "a `__proto__` member ({}): JavaScript's Object.assign, spread and for-in copies turn it into a \
                     prototype, whose fields a client then reads as the object's own; the receipt binds none of them",
                    v.type_name()
                )
                },
            );
        }
    }

    /// `v` (at `at`) must be a string; a present value of another type fails
    /// (`what`: the field in words).
    pub(super) fn string_or_absent(
        &mut self,
        report: &mut ReportBuilder,
        v: Option<Ref<'_>>,
        at: impl FnOnce() -> String,
        bound: impl FnOnce() -> String,
        what: &dyn Fn() -> String,
    ) {
        if let Some(v) = v.filter(|v| v.as_text().is_none()) {
            self.fail_if(report, true, at, bound, || {
                format!(
                    "{} is {}, not a string: a client would use that value, which the receipt does not bind",
                    what(),
                    v.type_name()
                )
            });
        }
    }

    pub(super) fn finish(self, report: &mut ReportBuilder, at: &str, what: &str) {
        if self.checked > 0 && self.failed == 0 {
            report.pass(self.code, at, format!("{} {what}", self.checked));
        }
    }
}

/// A fixed pointer, for [`Tally::check`].
pub(super) fn p(s: &str) -> impl FnOnce() -> String + '_ {
    move || s.to_string()
}
