//! The config schema each engine owns: every key as the real system spells it,
//! its type and range, unit, default per version profile, one-line doc, and
//! whether lbscope models it.
//!
//! Scenario files, share links, `set_config` actions, the settings panel and the
//! CLI all read config keys through it, so a key is either known or refused with
//! the closest known key: nothing the user set is silently dropped. Keys that the
//! real system has but lbscope does not model are kept (they round-trip through
//! links) and every place that shows or applies them says that they change
//! nothing here.

use crate::sort::StableSort;
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::marker::PhantomData;

/// What values a key takes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    /// `true` / `false`.
    Bool,
    /// A whole number in `min..=max`.
    Int {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// A number in `min..=max` (finite).
    Float {
        /// Smallest allowed.
        min: f64,
        /// Largest allowed.
        max: f64,
    },
    /// One of these names (as the real system writes them; the case is the
    /// engine's to judge).
    Choice(&'static [&'static str]),
    /// A duration: milliseconds, or a text the engine reads (Flink's `10 s`).
    Duration {
        /// Longest allowed, in ms.
        max_ms: u64,
    },
    /// Free text.
    Text,
    /// A list of texts.
    TextList,
}

/// One config key.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Knob {
    /// The key as the real system spells it.
    pub key: &'static str,
    /// Other spellings that are read as this key (older or misspelt names).
    pub aliases: &'static [&'static str],
    /// Its values.
    pub kind: Kind,
    /// Unit shown next to the value ("%", "MB", "ms", …; empty for none).
    pub unit: &'static str,
    /// The settings panel's section.
    pub group: &'static str,
    /// One line: what it does.
    pub doc: &'static str,
    /// Whether lbscope's engine uses it (false: known to the real system, kept
    /// in the scenario, changes nothing here).
    pub modelled: bool,
    /// Whether it may be unset (`null`: the real system's built-in choice).
    pub optional: bool,
}

impl Knob {
    /// A modelled key.
    pub const fn new(key: &'static str, kind: Kind, group: &'static str, doc: &'static str) -> Knob {
        Knob {
            key,
            aliases: &[],
            kind,
            unit: "",
            group,
            doc,
            modelled: true,
            optional: false,
        }
    }
    /// With a unit.
    pub const fn unit(mut self, unit: &'static str) -> Knob {
        self.unit = unit;
        self
    }
    /// With other accepted spellings.
    pub const fn aliases(mut self, aliases: &'static [&'static str]) -> Knob {
        self.aliases = aliases;
        self
    }
    /// May be unset (`null`).
    pub const fn optional(mut self) -> Knob {
        self.optional = true;
        self
    }
    /// Known to the real system, not modelled by lbscope.
    pub const fn unmodelled(mut self) -> Knob {
        self.modelled = false;
        self
    }

    /// Whether `name` is this key or one of its aliases.
    pub fn answers_to(&self, name: &str) -> bool {
        self.key == name || self.aliases.contains(&name)
    }

    /// Check one value against the kind (the engine's own rules come after).
    pub fn check(&self, value: &Value) -> Result<(), String> {
        let key = self.key;
        if value.is_null() && self.optional {
            return Ok(());
        }
        match self.kind {
            Kind::Bool if !value.is_boolean() => Err(format!("{key} takes true or false, not {value}")),
            Kind::Int { min, max } => match value.as_i64().or_else(|| {
                value
                    .as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                    .map(|f| f as i64)
            }) {
                Some(n) if (min..=max).contains(&n) => Ok(()),
                Some(n) => Err(format!(
                    "{key} must be between {min} and {max}; {n} is out of range"
                )),
                None => Err(format!("{key} takes a whole number, not {value}")),
            },
            Kind::Float { min, max } => match value.as_f64() {
                Some(x) if x.is_finite() && x >= min && x <= max => Ok(()),
                Some(x) => Err(format!(
                    "{key} must be between {min} and {max}; {x} is out of range"
                )),
                None => Err(format!("{key} takes a number, not {value}")),
            },
            Kind::Choice(names) => match value.as_str() {
                Some(s) if names.iter().any(|n| n.eq_ignore_ascii_case(s)) => Ok(()),
                _ => Err(format!("{key} is one of {}, not {value}", names.join(", "))),
            },
            Kind::Duration { max_ms } => match value {
                Value::Number(n) => match n.as_u64() {
                    Some(ms) if ms <= max_ms => Ok(()),
                    Some(ms) => Err(format!(
                        "{key} must be at most {max_ms} ms; {ms} ms is out of range"
                    )),
                    None => Err(format!(
                        "{key} takes a duration (ms, or text such as \"10 s\"), not {value}"
                    )),
                },
                Value::String(_) => Ok(()),
                _ => Err(format!(
                    "{key} takes a duration (ms, or text such as \"10 s\"), not {value}"
                )),
            },
            Kind::Text if !value.is_string() => Err(format!("{key} takes text, not {value}")),
            Kind::TextList if !value.as_array().is_some_and(|a| a.iter().all(Value::is_string)) => {
                Err(format!("{key} takes a list of texts, not {value}"))
            }
            _ => Ok(()),
        }
    }
}

/// Why a config could not be read or applied.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A key that neither the real system nor lbscope knows.
    #[error("unknown config key `{key}`{}", suggestion(.closest))]
    UnknownKey {
        /// The key as written.
        key: String,
        /// The nearest known key, if any is near.
        closest: Option<&'static str>,
    },
    /// A value of the wrong type or out of range, or a rule between keys.
    #[error("{0}")]
    Invalid(String),
}

fn suggestion(closest: &Option<&'static str>) -> String {
    closest.map_or(String::new(), |c| format!(" (did you mean `{c}`?)"))
}

/// A config type whose keys lbscope knows.
pub trait Schema: Clone + Default + PartialEq + Serialize + DeserializeOwned {
    /// Every key: modelled ones (fields of the config) and known, unmodelled ones.
    fn knobs() -> &'static [Knob];

    /// The version profiles as (name, config); the first is the default one
    /// (`Self::default()`). A system without profiles has one.
    fn profiles() -> Vec<(&'static str, Self)>;

    /// The engine's rules between keys (value ranges are checked from the kinds).
    fn rules(&self) -> Result<(), String>;

    /// The values of known, unmodelled keys that this config holds.
    fn unmodelled(&self) -> &BTreeMap<String, Value>;

    /// The key that names the profile a config starts from, if the system has
    /// profiles (Pulsar's `profile`).
    const PROFILE_KEY: Option<&'static str> = None;

    /// The config of the profile this one starts from (keys a scenario leaves
    /// out take its values).
    fn baseline(&self) -> Self {
        Self::default()
    }

    /// The strategy keys a run can be compared on (same actions, another value).
    fn compare_keys() -> &'static [&'static str] {
        &[]
    }
}

/// The knob `name` answers to (its key or an alias).
pub fn knob<C: Schema>(name: &str) -> Option<&'static Knob> {
    C::knobs().iter().find(|k| k.answers_to(name))
}

/// The known key closest to `name` (case-insensitive edit distance), when it
/// is near enough to be what was meant.
pub fn closest<C: Schema>(name: &str) -> Option<&'static str> {
    let lower = name.to_ascii_lowercase();
    C::knobs()
        .iter()
        .flat_map(|k| {
            std::iter::once(k.key)
                .chain(k.aliases.iter().copied())
                .map(move |n| (k.key, n))
        })
        .map(|(key, n)| (strsim::levenshtein(&lower, &n.to_ascii_lowercase()), key))
        .filter(|(d, key)| *d <= (key.len() / 3).max(3))
        .min()
        .map(|(_, key)| key)
}

/// Check one `(key, value)`: the key is known (or an alias, returned as the
/// key), the value fits its kind, and the config type reads it.
pub fn check_entry<C: Schema>(name: &str, value: &Value) -> Result<&'static Knob, ConfigError> {
    let k = knob::<C>(name).ok_or_else(|| ConfigError::UnknownKey {
        key: name.to_string(),
        closest: closest::<C>(name),
    })?;
    // A modelled choice is the engine's to read (it may accept other spellings,
    // such as Kafka's short assignor names); every other kind is checked here.
    if !(k.modelled && matches!(k.kind, Kind::Choice(_))) {
        k.check(value).map_err(ConfigError::Invalid)?;
    }
    if k.modelled {
        let mut one = Map::new();
        one.insert(k.key.to_string(), value.clone());
        serde_json::from_value::<C>(Value::Object(one))
            .map_err(|e| ConfigError::Invalid(format!("{}: {e}", k.key)))?;
    }
    Ok(k)
}

/// Read a config from JSON, strictly: an object whose every key is known (old
/// spellings are read as the key), every value fits its key, and the engine's
/// rules hold. Missing keys take their defaults.
pub fn read<C: Schema>(value: Value) -> Result<C, ConfigError> {
    let c = read_keys::<C>(value)?;
    c.rules().map_err(ConfigError::Invalid)?;
    Ok(c)
}

/// [`read`] without the engine's rules between keys (the engine checks those
/// itself, with its own errors).
fn read_keys<C: Schema>(value: Value) -> Result<C, ConfigError> {
    let Value::Object(map) = value else {
        return Err(ConfigError::Invalid(format!(
            "a config is an object of keys and values, not {}",
            short(&value)
        )));
    };
    let mut canon = Map::new();
    for (name, v) in map {
        let k = check_entry::<C>(&name, &v)?;
        if canon.insert(k.key.to_string(), v).is_some() {
            return Err(ConfigError::Invalid(format!(
                "{} is set twice (once as {name})",
                k.key
            )));
        }
    }
    serde_json::from_value(Value::Object(canon)).map_err(|e| ConfigError::Invalid(e.to_string()))
}

fn short(v: &Value) -> String {
    let s = v.to_string();
    if s.len() > 40 {
        format!("{}…", &s[..s.char_indices().nth(40).map_or(s.len(), |(i, _)| i)])
    } else {
        s
    }
}

/// Check that every unmodelled value a config holds is a known key of the
/// real system with a value of its kind (a config built in code or read leniently).
pub fn check_unmodelled<C: Schema>(c: &C) -> Result<(), ConfigError> {
    for (k, v) in c.unmodelled() {
        match knob::<C>(k) {
            Some(knob) if !knob.modelled && knob.key == k => knob.check(v).map_err(ConfigError::Invalid)?,
            _ => {
                return Err(ConfigError::UnknownKey {
                    key: k.clone(),
                    closest: closest::<C>(k),
                })
            }
        }
    }
    Ok(())
}

/// Deserialize a config strictly (for `#[serde(deserialize_with)]`).
pub fn deserialize<'de, C: Schema, D: serde::Deserializer<'de>>(d: D) -> Result<C, D::Error> {
    let v = Value::deserialize(d)?;
    read::<C>(v).map_err(serde::de::Error::custom)
}

/// The config as a JSON object of every key (modelled and unmodelled).
pub fn to_object<C: Schema>(c: &C) -> Map<String, Value> {
    match serde_json::to_value(c) {
        Ok(Value::Object(m)) => m,
        _ => Map::new(),
    }
}

/// The value of `key` in a profile's config (`None`: the profile leaves it unset).
pub fn default_in<C: Schema>(profile: &C, key: &str) -> Option<Value> {
    to_object(profile).get(key).cloned()
}

/// Keys whose values differ between two configs, as `(key, old, new)` in key
/// order (`Value::Null` for an unset unmodelled key).
pub fn changes<C: Schema>(old: &C, new: &C) -> Vec<(String, Value, Value)> {
    let (o, n) = (to_object(old), to_object(new));
    let mut keys: Vec<&String> = o.keys().chain(n.keys()).collect();
    keys.stable_sort();
    keys.dedup();
    keys.into_iter()
        .filter_map(|k| {
            let (a, b) = (
                o.get(k).cloned().unwrap_or(Value::Null),
                n.get(k).cloned().unwrap_or(Value::Null),
            );
            (a != b).then(|| (k.clone(), a, b))
        })
        .collect()
}

/// Some config keys and their new values: what a `set_config` action carries.
/// Reading one checks every key and value against the schema, so a patch only
/// ever holds known keys with values of their kind.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(transparent)]
pub struct Patch<C> {
    values: BTreeMap<String, Value>,
    #[serde(skip)]
    _config: PhantomData<fn() -> C>,
}

impl<C: Schema> Patch<C> {
    /// An empty patch.
    pub fn new() -> Self {
        Patch {
            values: BTreeMap::new(),
            _config: PhantomData,
        }
    }

    /// Set `key` (or an alias of it) to `value`, checked.
    pub fn set(mut self, key: &str, value: Value) -> Result<Self, ConfigError> {
        let k = check_entry::<C>(key, &value)?;
        self.values.insert(k.key.to_string(), value);
        Ok(self)
    }

    /// One key.
    pub fn one(key: &str, value: Value) -> Result<Self, ConfigError> {
        Self::new().set(key, value)
    }

    /// Every key where `to` differs from `from`, so applying the patch to `from`
    /// gives `to`.
    pub fn between(from: &C, to: &C) -> Self {
        Patch {
            values: changes(from, to)
                .into_iter()
                .map(|(k, _, new)| (k, new))
                .collect(),
            _config: PhantomData,
        }
    }

    /// Every key of `c` (applying it to any config gives `c`).
    pub fn whole(c: &C) -> Self {
        Patch {
            values: to_object(c).into_iter().collect(),
            _config: PhantomData,
        }
    }

    /// The keys and values.
    pub fn values(&self) -> &BTreeMap<String, Value> {
        &self.values
    }

    /// `base` with these keys set (each checked against its kind; the engine
    /// checks its rules between keys when it takes the config).
    pub fn apply_to(&self, base: &C) -> Result<C, ConfigError> {
        let mut m = to_object(base);
        for (k, v) in &self.values {
            if v.is_null() && knob::<C>(k).is_some_and(|k| !k.modelled) {
                m.remove(k);
            } else {
                m.insert(k.clone(), v.clone());
            }
        }
        read_keys::<C>(Value::Object(m))
    }

    /// The keys of this patch that lbscope knows but does not model.
    pub fn unmodelled_keys(&self) -> Vec<&'static str> {
        self.values
            .keys()
            .filter_map(|k| knob::<C>(k))
            .filter(|k| !k.modelled)
            .map(|k| k.key)
            .collect()
    }
}

impl<C: Schema> Default for Patch<C> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'de, C: Schema> Deserialize<'de> for Patch<C> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let m = Map::<String, Value>::deserialize(d)?;
        let mut p = Patch::new();
        for (k, v) in m {
            p = p.set(&k, v).map_err(serde::de::Error::custom)?;
        }
        Ok(p)
    }
}

/// The payload of every engine's `set_config` action: `{"config": {KEY: VALUE, …}}`.
/// The older one-key form `{"key": KEY, "value": VALUE}` is read too.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(bound(serialize = ""))]
pub struct ConfigChange<C: Schema> {
    /// The keys to set.
    pub config: Patch<C>,
}

impl<C: Schema> ConfigChange<C> {
    /// Set these keys.
    pub fn new(config: Patch<C>) -> Self {
        ConfigChange { config }
    }

    /// Set one key, checked.
    pub fn one(key: &str, value: Value) -> Result<Self, ConfigError> {
        Ok(ConfigChange {
            config: Patch::one(key, value)?,
        })
    }
}

impl<'de, C: Schema> Deserialize<'de> for ConfigChange<C> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        use serde::de::Error;
        let mut m = Map::<String, Value>::deserialize(d)?;
        let config = match (m.remove("config"), m.remove("key"), m.remove("value")) {
            (Some(c), None, None) => Patch::deserialize(c).map_err(D::Error::custom)?,
            (None, Some(Value::String(k)), Some(v)) => Patch::one(&k, v).map_err(D::Error::custom)?,
            (None, Some(k), _) => return Err(D::Error::custom(format!("set_config: key must be text, not {k}"))),
            _ => {
                return Err(D::Error::custom(
                    "set_config takes {\"config\": {KEY: VALUE, …}} (or the older {\"key\": KEY, \"value\": VALUE})",
                ))
            }
        };
        if let Some(extra) = m.keys().next() {
            return Err(D::Error::custom(format!(
                "set_config: unknown field `{extra}` (it takes `config`)"
            )));
        }
        Ok(ConfigChange { config })
    }
}

/// One line per changed key, `key: old -> new`, noting keys lbscope does not model.
pub fn describe_changes<C: Schema>(old: &C, new: &C) -> Vec<String> {
    changes(old, new)
        .into_iter()
        .map(|(k, a, b)| {
            let note = if knob::<C>(&k).is_some_and(|k| !k.modelled) {
                " (known to the real system; lbscope does not model it, so it changes nothing here)"
            } else {
                ""
            };
            let shown = |v: &Value| {
                if v.is_null() {
                    "unset".to_string()
                } else {
                    v.to_string()
                }
            };
            format!("{k}: {} -> {}{note}", shown(&a), shown(&b))
        })
        .collect()
}

/// Test support: check that a config type and its knob table agree (every
/// serialized key of every profile has a modelled knob and vice versa; each
/// profile's values fit their kinds; aliases name no other key).
pub fn check_table<C: Schema>() -> Result<(), String> {
    let knobs = C::knobs();
    for (name, profile) in C::profiles() {
        let obj = to_object(&profile);
        for (k, v) in &obj {
            let knob = knobs
                .iter()
                .find(|x| x.key == k)
                .ok_or_else(|| format!("{name}: field {k} has no knob"))?;
            if !knob.modelled && !profile.unmodelled().contains_key(k) {
                return Err(format!("{k} is a field but its knob says unmodelled"));
            }
            knob.check(v).map_err(|e| format!("{name}: default of {e}"))?;
        }
        for k in knobs.iter().filter(|k| k.modelled) {
            if !obj.contains_key(k.key) {
                return Err(format!("{name}: knob {} is modelled but not a field", k.key));
            }
        }
        profile.rules().map_err(|e| format!("{name}: {e}"))?;
    }
    for (i, a) in knobs.iter().enumerate() {
        for b in &knobs[i + 1..] {
            if a.key == b.key || b.aliases.contains(&a.key) || a.aliases.contains(&b.key) {
                return Err(format!("{} and {} overlap", a.key, b.key));
            }
        }
    }
    Ok(())
}
