//! What the inputs cannot say and the user can ([`Options`]), as one table of
//! fields ([`OPTION_FIELDS`]) that both the CLI's flags and the playground's
//! import form are read through ([`Options::set`]), and what each system's
//! importer reads, in words ([`hint`], [`expected`]).

use super::ImportError;
use crate::engine::System;
use std::collections::BTreeMap;

/// What the inputs cannot say and the user can: the CLI's flags, the
/// playground's import fields.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `--partitions TOPIC=N`: partition counts of Kafka topics.
    pub partitions: BTreeMap<String, u32>,
    /// `--pattern-topics PATTERN=T1,T2`: the topics a pattern subscription matches.
    pub pattern_topics: BTreeMap<String, Vec<String>>,
    /// `--application-id`: Kafka Streams' `application.id`.
    pub application_id: Option<String>,
    /// `--instances N`: Kafka Streams instances to start.
    pub instances: Option<u32>,
    /// `--threads T`: `num.stream.threads` of each instance.
    pub threads: Option<u32>,
    /// `--standbys N`: `num.standby.replicas`.
    pub standbys: Option<u32>,
    /// `--task-managers N`: Flink TaskManagers.
    pub task_managers: Option<u32>,
    /// `--slots S`: `taskmanager.numberOfTaskSlots` of each TaskManager.
    pub slots: Option<u32>,
    /// `--namespace NS`: the Pulsar namespace a `namespaces bundles` output belongs to.
    pub namespace: Option<String>,
    /// `--reported-usage`: pin each Pulsar broker's resource usage to what its load
    /// report says (`set_broker_load`) instead of deriving it from the traffic.
    pub reported_usage: bool,
    /// Seed of the scenario's RNG.
    pub seed: u64,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            partitions: BTreeMap::new(),
            pattern_topics: BTreeMap::new(),
            application_id: None,
            instances: None,
            threads: None,
            standbys: None,
            task_managers: None,
            slots: None,
            namespace: None,
            reported_usage: false,
            seed: 1,
        }
    }
}

/// How an option is typed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// One value.
    Text,
    /// `TOPIC=N` pairs, one a line or comma-separated.
    Pairs,
    /// `NAME=VALUE` lines, the value a comma-separated list.
    Lines,
    /// On or off.
    Flag,
}

/// One option: its CLI flag, its label in the playground, its system.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionField {
    /// The CLI flag (`--partitions`), also the form field's id.
    pub flag: &'static str,
    /// The form's label.
    pub label: &'static str,
    /// The importer that reads it.
    pub system: System,
    /// How it is typed.
    pub kind: OptionKind,
    /// An example value.
    pub example: &'static str,
}

const fn field(
    flag: &'static str,
    label: &'static str,
    system: System,
    kind: OptionKind,
    example: &'static str,
) -> OptionField {
    OptionField {
        flag,
        label,
        system,
        kind,
        example,
    }
}

/// Every option, by system, in the order the form shows them.
pub const OPTION_FIELDS: [OptionField; 10] = {
    use OptionKind::*;
    use System::{Flink, Kstreams, Pulsar};
    [
        field(
            "--partitions",
            "Partition counts",
            Kstreams,
            Pairs,
            "orders=6, payments=6",
        ),
        field(
            "--pattern-topics",
            "Pattern topics (PATTERN=T1,T2 a line)",
            Kstreams,
            Lines,
            "orders-.*=orders-eu,orders-us",
        ),
        field("--application-id", "application.id", Kstreams, Text, "my-app"),
        field("--instances", "Instances", Kstreams, Text, "3"),
        field("--threads", "Threads each", Kstreams, Text, "2"),
        field("--standbys", "Standby replicas", Kstreams, Text, "1"),
        field("--task-managers", "TaskManagers", Flink, Text, "4"),
        field("--slots", "Slots per TaskManager", Flink, Text, "4"),
        field(
            "--namespace",
            "Namespace of the bundles",
            Pulsar,
            Text,
            "public/default",
        ),
        field(
            "--reported-usage",
            "Pin each broker's usage to its load report",
            Pulsar,
            Flag,
            "",
        ),
    ]
};

/// `TOPIC=N` pairs, one a line or comma-separated.
fn pairs(s: &str) -> impl Iterator<Item = Result<(&str, &str), String>> {
    s.split(['\n', ','])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| {
            p.rsplit_once('=')
                .map(|(k, v)| (k.trim(), v.trim()))
                .ok_or_else(|| format!("{p}: expected TOPIC=N"))
        })
}

fn number(s: &str) -> Result<u32, String> {
    s.parse().map_err(|_| format!("{s:?} is not a whole number"))
}

impl Options {
    /// Read one option as typed after its `flag` (the CLI) or in its field (the
    /// playground); repeatable options add to what is there. An empty value
    /// leaves a one-value option unset. Errors name the flag and the value.
    pub fn set(&mut self, flag: &str, value: &str) -> Result<(), String> {
        let v = value.trim();
        let text = || Some(v.to_string()).filter(|v| !v.is_empty());
        let count = || {
            if v.is_empty() {
                Ok(None)
            } else {
                number(v).map(Some)
            }
        };
        let r = match flag {
            "--partitions" => pairs(v).try_for_each(|p| {
                let (t, n) = p?;
                let n = number(n).map_err(|e| format!("{t}={n}: {e}"))?;
                match self.partitions.insert(t.to_string(), n) {
                    Some(_) => Err(format!("{t} is given twice")),
                    None => Ok(()),
                }
            }),
            "--pattern-topics" => v
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .try_for_each(|line| {
                    let (p, ts) = line
                        .rsplit_once('=')
                        .ok_or_else(|| format!("{line:?} is not PATTERN=TOPIC1,TOPIC2"))?;
                    let ts: Vec<String> = ts
                        .split([',', ' '])
                        .map(str::trim)
                        .filter(|t| !t.is_empty())
                        .map(String::from)
                        .collect();
                    if ts.is_empty() {
                        return Err(format!("{line:?}: name at least one topic"));
                    }
                    self.pattern_topics.insert(p.trim().to_string(), ts);
                    Ok(())
                }),
            "--application-id" => {
                self.application_id = text();
                Ok(())
            }
            "--instances" => count().map(|n| self.instances = n),
            "--threads" => count().map(|n| self.threads = n),
            "--standbys" => count().map(|n| self.standbys = n),
            "--task-managers" => count().map(|n| self.task_managers = n),
            "--slots" => count().map(|n| self.slots = n),
            "--namespace" => {
                self.namespace = text();
                Ok(())
            }
            "--reported-usage" => match v {
                "" | "false" | "true" => {
                    self.reported_usage = v == "true";
                    Ok(())
                }
                _ => Err(format!("{v:?} is not true or false")),
            },
            _ => {
                let known: Vec<&str> = OPTION_FIELDS.iter().map(|f| f.flag).collect();
                return Err(format!(
                    "{flag} is not an import option (known: {})",
                    known.join(", ")
                ));
            }
        };
        r.map_err(|e| format!("{flag} {e}"))
    }

    /// Whether the option behind `flag` holds a value.
    fn given(&self, flag: &str) -> bool {
        match flag {
            "--partitions" => !self.partitions.is_empty(),
            "--pattern-topics" => !self.pattern_topics.is_empty(),
            "--application-id" => self.application_id.is_some(),
            "--instances" => self.instances.is_some(),
            "--threads" => self.threads.is_some(),
            "--standbys" => self.standbys.is_some(),
            "--task-managers" => self.task_managers.is_some(),
            "--slots" => self.slots.is_some(),
            "--namespace" => self.namespace.is_some(),
            "--reported-usage" => self.reported_usage,
            _ => false,
        }
    }
}

/// Options of another system are refused (they would be silently ignored).
pub(super) fn check_options(system: System, o: &Options) -> Result<(), ImportError> {
    match OPTION_FIELDS
        .iter()
        .find(|f| f.system != system && o.given(f.flag))
    {
        Some(f) => Err(ImportError::BadOption(format!(
            "{} is an option of `lbscope import {}`, not of `lbscope import {}`",
            f.flag,
            f.system.slug(),
            system.slug()
        ))),
        None => Ok(()),
    }
}

/// What `import` wants for each system, for the wrong-kind message.
pub(super) fn expected(system: System) -> &'static str {
    match system {
        System::Kstreams => "a Kafka Streams input (a Topology#describe() text or kafka-topics.sh --describe output)",
        System::Flink => {
            "a Flink input (getExecutionPlan() JSON, REST /jobs/:jobid/plan, /jobs/:jobid or /taskmanagers JSON)"
        }
        System::Pulsar => {
            "a Pulsar input (pulsar-admin namespaces bundles, broker-stats load-report, namespaces topics or topics stats)"
        }
    }
}

/// What each system's inputs are and the commands that print them.
pub fn hint(system: System) -> &'static str {
    match system {
        System::Kstreams => "Paste the text of topology.describe() (println(topology.describe())); partition counts come from kafka-topics.sh --describe output (paste it as another input) or the field below.",
        System::Flink => "Paste the JSON of env.getExecutionPlan(), or of the REST API's /jobs/<jobid>/plan or /jobs/<jobid>; the cluster comes from /taskmanagers (another input) or the fields below.",
        System::Pulsar => "Paste pulsar-admin broker-stats load-report (one input per broker), pulsar-admin namespaces bundles NS, and pulsar-admin namespaces topics NS or topics stats.",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_field_reads_and_is_seen_as_given() {
        for f in OPTION_FIELDS {
            let mut o = Options::default();
            assert!(!o.given(f.flag), "{}", f.flag);
            let v = if f.kind == OptionKind::Flag {
                "true"
            } else {
                f.example
            };
            o.set(f.flag, v).unwrap_or_else(|e| panic!("{}: {e}", f.flag));
            assert!(o.given(f.flag), "{}", f.flag);
            // Every field belongs to one system, and is refused by the others.
            for s in System::ALL {
                assert_eq!(
                    check_options(s, &o).is_ok(),
                    s == f.system,
                    "{} under {s:?}",
                    f.flag
                );
            }
        }
    }

    #[test]
    fn options_name_the_flag_and_the_bad_value() {
        let mut o = Options::default();
        assert_eq!(
            o.set("--partitions", "orders=6, lines=many").unwrap_err(),
            "--partitions lines=many: \"many\" is not a whole number"
        );
        assert_eq!(
            o.set("--partitions", "a=1\na=2").unwrap_err(),
            "--partitions a is given twice"
        );
        assert_eq!(
            o.set("--instances", "three").unwrap_err(),
            "--instances \"three\" is not a whole number"
        );
        assert!(o
            .set("--pattern-topics", "p=")
            .unwrap_err()
            .contains("name at least one topic"));
        assert!(o.set("--partion", "x=1").unwrap_err().contains("--partitions"));
        let mut o = Options::default();
        o.set("--pattern-topics", "orders-.*=orders-eu, orders-us\nx=y")
            .unwrap();
        assert_eq!(o.pattern_topics["orders-.*"], ["orders-eu", "orders-us"]);
        o.set("--instances", "").unwrap();
        assert_eq!(o.instances, None);
    }
}
