//! One module per game: the rules, the encodings, the observations, and their unit tests.

/// A field-less enum of a game state stored as its `u8` code (its place in the list, from 0),
/// in memory and in saved states (serde reads and writes the code, so the JSON is that of a
/// plain `u8` field): with `From<E> for u8`, `TryFrom<u8>` (an unknown code is refused, so a
/// saved state cannot hold a value the rules do not know) and `E::ALL`, every value in order.
macro_rules! coded_enum {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $($(#[$variant_meta:meta])* $variant:ident,)+
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        #[serde(into = "u8", try_from = "u8")]
        #[repr(u8)]
        $vis enum $name {
            $($(#[$variant_meta])* $variant,)+
        }

        impl $name {
            /// Every value, in code order (the code is the index).
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
        }

        impl From<$name> for u8 {
            fn from(value: $name) -> u8 {
                value as u8
            }
        }

        impl TryFrom<u8> for $name {
            type Error = String;
            fn try_from(code: u8) -> ::std::result::Result<Self, String> {
                $name::ALL
                    .get(code as usize)
                    .copied()
                    .ok_or_else(|| {
                        format!(
                            "{} must be from 0 to {}, got {code}",
                            stringify!($name),
                            $name::ALL.len() - 1
                        )
                    })
            }
        }
    };
}

pub mod duell_der_drachen;
pub mod duo;
pub mod duo_regna;
pub mod regine;
pub mod regnum;

#[cfg(test)]
mod tests {
    use super::regine::{Effect, Phase};

    #[test]
    fn coded_enums_are_their_codes_in_json_and_refuse_unknown_codes() {
        assert_eq!(serde_json::to_string(&Phase::Wager).unwrap(), "1");
        assert_eq!(
            serde_json::from_str::<Effect>("7").unwrap(),
            Effect::PrincessDiscard
        );
        assert_eq!(u8::from(Effect::HeraldChoice), 5);
        assert_eq!(Phase::ALL, [Phase::Build, Phase::Wager, Phase::Over]);
        let refused = serde_json::from_str::<Phase>("3").unwrap_err().to_string();
        assert!(
            refused.contains("Phase must be from 0 to 2, got 3"),
            "{refused}"
        );
    }
}
