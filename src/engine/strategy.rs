//! Strategies: each pluggable algorithm of a system (a Pulsar shedder or
//! placement, a Kafka Streams task assignor, a Flink slot matching) is one
//! type implementing that system's strategy trait, in a file of its own, and
//! is listed once in the system's registry. The registry is the one place
//! that names a strategy: the config value that selects it, the settings
//! panel's choices, the fidelity page and the property tests all read it.

use super::schema::{ConfigError, Patch, Schema};
use serde::Serialize;

/// What the registry tells about one strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct StrategyInfo {
    /// The config key that selects it, spelt as the real system spells it.
    pub key: &'static str,
    /// The value of that key that selects it (as a scenario writes it).
    pub name: &'static str,
    /// The upstream class it reproduces.
    pub upstream: &'static str,
    /// One line: what it decides and how.
    pub summary: &'static str,
    /// The engine source file that holds it, relative to `src/engine/`.
    pub file: &'static str,
}

impl StrategyInfo {
    /// The config patch that selects it: `key` set to `name`, read as JSON
    /// when it is a JSON literal (`true`, `3`), else as a string.
    pub fn patch<C: Schema>(&self) -> Result<Patch<C>, ConfigError> {
        let value =
            serde_json::from_str(self.name).unwrap_or_else(|_| serde_json::Value::String(self.name.into()));
        Patch::<C>::one(self.key, value)
    }
}

/// What a strategy's own file says about it: the registry adds the key and
/// the name that select it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct About {
    /// The upstream class it reproduces.
    pub upstream: &'static str,
    /// One line: what it decides and how.
    pub summary: &'static str,
    /// `file!()` of the strategy's file.
    pub file: &'static str,
}

impl About {
    /// The registry entry: `key` set to `name` selects it.
    pub fn info(self, key: &'static str, name: &'static str) -> StrategyInfo {
        let file = self.file.replace('\\', "/");
        let file = match file.find("src/engine/") {
            Some(i) => &self.file[i + "src/engine/".len()..],
            None => self.file,
        };
        StrategyInfo {
            key,
            name,
            upstream: self.upstream,
            summary: self.summary,
            file,
        }
    }
}

/// A strategy registry: one line per strategy (`Variant => field: Type`)
/// makes the config enum (serialised as the variant's name), its `ALL` and
/// `NAMES` lists, the registry entries ([`StrategyInfo`]) and a set that
/// holds one value of each strategy (its history between rounds) with
/// `get` / `get_mut` by config value. Each `Type` implements `$trait` and
/// has an inherent `fn about() -> About`.
macro_rules! registry {
    // Lines of the form `Name => mod file::Type,`: each declares the strategy's
    // module (its one file) as well, so a new strategy is its file plus its line.
    (
        $(#[$enum_meta:meta])*
        pub enum $enum:ident;
        key $key:literal;
        $(#[$set_meta:meta])*
        pub struct $set:ident: dyn $trait:ident;
        $( $(#[$var_meta:meta])* $variant:ident => mod $field:ident :: $tyname:ident, )+
    ) => {
        $( pub mod $field; )+
        $crate::engine::strategy::registry! {
            $(#[$enum_meta])*
            pub enum $enum;
            key $key;
            $(#[$set_meta])*
            pub struct $set: dyn $trait;
            $( $(#[$var_meta])* $variant => $field: $field::$tyname, )+
        }
    };
    (
        $(#[$enum_meta:meta])*
        pub enum $enum:ident;
        key $key:literal;
        $(#[$set_meta:meta])*
        pub struct $set:ident: dyn $trait:ident;
        $( $(#[$var_meta:meta])* $variant:ident => $field:ident: $ty:ty, )+
    ) => {
        $(#[$enum_meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize, Default)]
        pub enum $enum {
            $(
                #[doc = concat!("`", stringify!($variant), "`.")]
                $(#[$var_meta])*
                $variant,
            )+
        }

        impl $enum {
            /// Every registered strategy, in registry order.
            pub const ALL: &'static [$enum] = &[$($enum::$variant),+];
            /// Their config values, in registry order.
            pub const NAMES: &'static [&'static str] = &[$(stringify!($variant)),+];
            /// The config key that selects one.
            pub const KEY: &'static str = $key;

            /// The config value.
            pub const fn name(self) -> &'static str {
                match self {
                    $($enum::$variant => stringify!($variant),)+
                }
            }

            /// The registry entry.
            pub fn info(self) -> $crate::engine::strategy::StrategyInfo {
                match self {
                    $($enum::$variant => <$ty>::about().info($key, stringify!($variant)),)+
                }
            }

            /// Every registry entry, in registry order.
            pub fn infos() -> Vec<$crate::engine::strategy::StrategyInfo> {
                Self::ALL.iter().map(|s| s.info()).collect()
            }
        }

        impl std::fmt::Display for $enum {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }

        $(#[$set_meta])*
        #[derive(Clone, Debug, Default, PartialEq)]
        pub struct $set {
            $(
                #[doc = concat!("`", stringify!($variant), "`.")]
                pub $field: $ty,
            )+
        }

        impl $set {
            /// The strategy `s`.
            pub fn get(&self, s: $enum) -> &dyn $trait {
                match s {
                    $($enum::$variant => &self.$field,)+
                }
            }

            /// The strategy `s`, to run it.
            pub fn get_mut(&mut self, s: $enum) -> &mut dyn $trait {
                match s {
                    $($enum::$variant => &mut self.$field,)+
                }
            }
        }
    };
}
pub(crate) use registry;
