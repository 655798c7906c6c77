//! Reading a scenario strictly, with limits checked while reading: one pass
//! over the JSON text (before anything is built) refuses duplicate keys,
//! unknown top-level fields (naming the closest known one), too many actions
//! and over-long strings, each with the path where it stands; the typed parse
//! then names the path of whatever the format refuses.

use super::{Body, Log, Scenario, ScenarioError, MAX_ACTIONS};
use crate::engine::{schema, Engine, System};
use serde::de::{self, DeserializeOwned, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde_json::{Map, Value};
use std::collections::BTreeSet;
use std::fmt;

/// The fields a scenario has at its top level.
pub const TOP_LEVEL: [&str; 8] = [
    "format", "engine", "seed", "system", "config", "setup", "actions", "cursor",
];

/// Longest string a scenario may hold (a name, a prefix), in bytes.
pub const MAX_STRING_BYTES: usize = 64 * 1024;

/// Check `text` in one pass: well-formed JSON, an object whose keys are all
/// known, no key twice in any object, at most [`MAX_ACTIONS`] setup and log
/// actions together, no string longer than [`MAX_STRING_BYTES`].
pub fn prescan(text: &str) -> Result<(), ScenarioError> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut scan = Scan::default();
    let r = Walk {
        scan: &mut scan,
        path: String::new(),
        depth: 0,
    }
    .deserialize(&mut de)
    .and_then(|_| de.end());
    match (scan.problem.take(), r) {
        (Some(p), _) => Err(p),
        (None, Ok(())) => Ok(()),
        (None, Err(e)) => Err(ScenarioError::Json(e.to_string())),
    }
}

#[derive(Default)]
struct Scan {
    actions: usize,
    problem: Option<ScenarioError>,
}

impl Scan {
    fn fail<E: de::Error>(&mut self, p: ScenarioError) -> E {
        let msg = p.to_string();
        self.problem = Some(p);
        E::custom(msg)
    }
}

/// One JSON value at `path`.
struct Walk<'a> {
    scan: &'a mut Scan,
    path: String,
    depth: usize,
}

impl<'de> DeserializeSeed<'de> for Walk<'_> {
    type Value = ();
    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

fn at(path: &str) -> String {
    if path.is_empty() {
        "the top level".into()
    } else {
        path.to_string()
    }
}

impl<'de> Visitor<'de> for Walk<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON value")
    }

    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E: de::Error>(self, s: &str) -> Result<(), E> {
        if s.len() > MAX_STRING_BYTES {
            return Err(self.scan.fail(ScenarioError::Json(format!(
                "{}: a text of {} bytes is longer than the {} KiB lbscope reads",
                at(&self.path),
                s.len(),
                MAX_STRING_BYTES / 1024
            ))));
        }
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let counts = self.depth == 1 && (self.path == "setup" || self.path == "actions");
        let mut i = 0usize;
        loop {
            if counts {
                if self.scan.actions >= MAX_ACTIONS {
                    return Err(self.scan.fail(ScenarioError::TooManyActions {
                        found: MAX_ACTIONS + 1,
                        max: MAX_ACTIONS,
                    }));
                }
                self.scan.actions += 1;
            }
            let child = Walk {
                scan: &mut *self.scan,
                path: format!("{}[{i}]", self.path),
                depth: self.depth + 1,
            };
            if seq.next_element_seed(child)?.is_none() {
                if counts {
                    self.scan.actions -= 1;
                }
                return Ok(());
            }
            i += 1;
        }
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let mut seen = BTreeSet::new();
        while let Some(key) = map.next_key::<String>()? {
            if self.depth == 0 && !TOP_LEVEL.contains(&key.as_str()) {
                let closest = TOP_LEVEL
                    .iter()
                    .map(|k| (strsim::levenshtein(k, &key), *k))
                    .filter(|(d, _)| *d <= 3)
                    .min()
                    .map_or(String::new(), |(_, k)| format!(" (did you mean `{k}`?)"));
                return Err(self.scan.fail(ScenarioError::Json(format!(
                    "unknown field `{key}` at the top level{closest}; a scenario has {}",
                    TOP_LEVEL.join(", ")
                ))));
            }
            let path = if self.path.is_empty() {
                key.clone()
            } else {
                format!("{}.{key}", self.path)
            };
            if !seen.insert(key.clone()) {
                return Err(self.scan.fail(ScenarioError::Json(format!(
                    "{path} is given twice in one object (JSON readers disagree on which one counts)"
                ))));
            }
            map.next_value_seed(Walk {
                scan: &mut *self.scan,
                path,
                depth: self.depth + 1,
            })?;
        }
        Ok(())
    }
}

/// The actions of a raw scenario that carry keys besides `op`: the list
/// (`setup` or `actions`), the index and those keys.
pub fn action_keys(raw: &serde_json::Value) -> Vec<(&'static str, usize, Vec<String>)> {
    let mut out = Vec::new();
    for list in ["setup", "actions"] {
        let Some(items) = raw.get(list).and_then(|v| v.as_array()) else {
            continue;
        };
        for (i, a) in items.iter().enumerate() {
            if let Some(m) = a.as_object() {
                let keys: Vec<String> = m.keys().filter(|k| *k != "op").cloned().collect();
                if !keys.is_empty() {
                    out.push((list, i, keys));
                }
            }
        }
    }
    out
}

/// Refuse a field-less action (`step`, `schedule`, `rebalance`, ...) that was
/// written with fields: serde reads such an action by its `op` alone, so
/// `{"op": "step", "rounds": 1000}` would silently be one round.
pub fn check_fieldless(
    sc: &super::Scenario,
    extra: &[(&'static str, usize, Vec<String>)],
) -> Result<(), ScenarioError> {
    if extra.is_empty() {
        return Ok(());
    }
    struct Check<'a>(&'a [(&'static str, usize, Vec<String>)]);
    impl super::VisitLog for Check<'_> {
        type Out = Result<(), ScenarioError>;
        fn visit<E: super::InBody>(self, log: &super::Log<E>) -> Self::Out {
            for (list, i, keys) in self.0 {
                let a = if *list == "setup" {
                    log.setup.get(*i)
                } else {
                    log.actions.get(*i)
                };
                let Some(v) = a.and_then(|a| serde_json::to_value(a).ok()) else {
                    continue;
                };
                let Some(m) = v.as_object().filter(|m| m.len() == 1) else {
                    continue;
                };
                let op = m.get("op").and_then(|o| o.as_str()).unwrap_or("?");
                let fields = keys
                    .iter()
                    .map(|k| format!("`{k}`"))
                    .collect::<Vec<_>>()
                    .join(", ");
                let hint = if *a.expect("read above") == E::round_action() {
                    " (one round per action: repeat it, or give `run --rounds N`)"
                } else {
                    ""
                };
                return Err(ScenarioError::Json(format!(
                    "{list}[{i}]: `{op}` takes no fields, so {fields} would be ignored{hint}"
                )));
            }
            Ok(())
        }
    }
    sc.body.visit(Check(extra))
}

/// Read a scenario from its JSON value, naming the path of what is refused
/// (`seed: invalid type ...`, `setup[3]: unknown field `bundle` ...`). Each
/// field is read from its own part of the value, so the scenario's actions are
/// read by the same reader as any other JSON value.
pub fn scenario(value: Value) -> Result<Scenario, ScenarioError> {
    let Value::Object(mut m) = value else {
        return Err(ScenarioError::Json(
            "a scenario is a JSON object (`{\"format\": 2, \"system\": ...}`)".into(),
        ));
    };
    let format: u32 = required(&mut m, "format")?;
    let engine: String = field(&mut m, "engine")?.unwrap_or_default();
    let seed: u64 = required(&mut m, "seed")?;
    let cursor: Option<usize> = field::<Option<usize>>(&mut m, "cursor")?.flatten();
    let body = match required(&mut m, "system")? {
        System::Pulsar => Body::Pulsar(log(m)?),
        System::Flink => Body::Flink(log(m)?),
        System::Kstreams => Body::Kstreams(log(m)?),
    };
    Ok(Scenario {
        format,
        engine,
        seed,
        body,
        cursor,
    })
}

/// The config, setup and log of one engine: the scenario's other fields (the
/// top-level ones [`prescan`] does not know are refused there).
fn log<E: Engine>(mut m: Map<String, Value>) -> Result<Log<E>, ScenarioError> {
    let config = match m.remove("config") {
        Some(v) => schema::read::<E::Config>(v).map_err(|e| at_path("config", e))?,
        None => E::Config::default(),
    };
    Ok(Log {
        config,
        setup: actions::<E>(&mut m, "setup")?,
        actions: actions::<E>(&mut m, "actions")?,
    })
}

/// The list `key` of actions (empty when absent), each read on its own.
fn actions<E: Engine>(m: &mut Map<String, Value>, key: &str) -> Result<Vec<E::Action>, ScenarioError> {
    let items: Vec<Value> = field(m, key)?.unwrap_or_default();
    items
        .into_iter()
        .enumerate()
        .map(|(i, a)| serde_json::from_value(a).map_err(|e| at_path(&format!("{key}[{i}]"), e)))
        .collect()
}

/// The field `key` read as `T`, if present.
fn field<T: DeserializeOwned>(m: &mut Map<String, Value>, key: &str) -> Result<Option<T>, ScenarioError> {
    m.remove(key)
        .map(|v| serde_json::from_value(v).map_err(|e| at_path(key, e)))
        .transpose()
}

/// The field `key` read as `T`; missing is an error.
fn required<T: DeserializeOwned>(m: &mut Map<String, Value>, key: &'static str) -> Result<T, ScenarioError> {
    field(m, key)?.ok_or_else(|| ScenarioError::Json(format!("missing field `{key}`")))
}

fn at_path(path: &str, e: impl fmt::Display) -> ScenarioError {
    ScenarioError::Json(format!("{path}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::scenario::Scenario;

    #[test]
    fn a_duplicate_key_is_refused_with_its_path() {
        let e = prescan(r#"{"format":2,"seed":1,"seed":2}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("seed is given twice"), "{e}");
        let e = prescan(r#"{"config":{"a":1,"a":2}}"#).unwrap_err().to_string();
        assert!(e.contains("config.a is given twice"), "{e}");
    }

    #[test]
    fn an_unknown_top_level_field_names_the_closest() {
        let e = prescan(r#"{"seeed":1}"#).unwrap_err().to_string();
        assert!(e.contains("unknown field `seeed`") && e.contains("`seed`"), "{e}");
    }

    #[test]
    fn too_many_actions_stop_the_read_early() {
        let mut text = String::from(r#"{"actions":["#);
        for i in 0..=MAX_ACTIONS {
            if i > 0 {
                text.push(',');
            }
            text.push('0');
        }
        text.push_str("]}");
        assert!(matches!(
            prescan(&text),
            Err(ScenarioError::TooManyActions { .. })
        ));
    }

    #[test]
    fn an_over_long_text_is_refused_with_its_path() {
        let long = "x".repeat(MAX_STRING_BYTES + 1);
        let e = prescan(&format!(r#"{{"setup":[{{"name":"{long}"}}]}}"#))
            .unwrap_err()
            .to_string();
        assert!(e.contains("setup[0].name") && e.contains("64 KiB"), "{e}");
    }

    #[test]
    fn a_typed_error_names_its_path() {
        let e = Scenario::from_json(r#"{"format":2,"seed":"one","system":"pulsar"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("seed"), "{e}");
    }

    #[test]
    fn an_action_error_names_the_list_and_index() {
        let e = Scenario::from_json(
            r#"{"format":2,"seed":1,"system":"pulsar","setup":[{"op":"step"},
                {"op":"create_namespace","namespace":"t/n","bundle":4}]}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(
            e.contains("setup[1]: unknown field `bundle`, expected `namespace` or `bundles`"),
            "{e}"
        );
        let e = Scenario::from_json(r#"{"format":2,"seed":1,"system":"flink","actions":[{"op":"shedule"}]}"#)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("actions[0]: unknown variant `shedule`, expected one of"),
            "{e}"
        );
        let e = Scenario::from_json(r#"{"format":2,"seed":1,"system":"kafka"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("system: unknown variant `kafka`"), "{e}");
        let e = Scenario::from_json(r#"{"format":2,"system":"flink"}"#)
            .unwrap_err()
            .to_string();
        assert!(e.contains("missing field `seed`"), "{e}");
    }

    #[test]
    fn a_scenario_inside_another_value_reads_the_same() {
        let s = crate::scenario::presets::default_scenario(
            <crate::engine::kstreams::Sim as crate::engine::Engine>::SYSTEM,
        );
        let back: Scenario = serde_json::from_str(&s.to_json()).unwrap();
        assert_eq!(back, s);
        let e = serde_json::from_str::<Scenario>(
            r#"{"format":2,"seed":1,"system":"pulsar","config":{"nope":1}}"#,
        )
        .unwrap_err()
        .to_string();
        assert!(e.starts_with("config: "), "{e}");
    }

    #[test]
    fn a_well_formed_scenario_passes_the_prescan() {
        let s = crate::scenario::presets::default_scenario(
            <crate::engine::pulsar::Sim as crate::engine::Engine>::SYSTEM,
        );
        prescan(&s.to_json()).unwrap();
    }
}
