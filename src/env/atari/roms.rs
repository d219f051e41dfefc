//! The table of games: our snake-case ids ⇄ the ROMs bundled by the `ale` crate.
//!
//! Ids equal ALE's ROM file stems (`space_invaders`, `jamesbond`, `riverraid`, …), the names
//! ale-py uses too, so ALE picks the right per-game settings from the file name we load.

use ale::BundledRom;

macro_rules! rom_table {
    ($($id:ident => $variant:ident,)*) => {
        /// Every game id the `ale` crate bundles a ROM for that can be played, in alphabetical
        /// order (not the [`unsupported`] ones).
        pub const GAME_IDS: &[&str] = &[$(stringify!($id)),*];

        /// The bundled ROM of game `id`, `None` if the crate bundles no such ROM.
        pub fn bundled_rom(id: &str) -> Option<BundledRom> {
            match id {
                $(stringify!($id) => Some(BundledRom::$variant),)*
                _ => None,
            }
        }
    };
}

/// Games the `ale` crate bundles a ROM for that cannot be played here, with why.
const UNSUPPORTED: &[(&str, &str)] = &[(
    "defender",
    "not supported: ALE 0.6's Defender mode selection presses SELECT until RAM 0x9B holds the \
     mode, which never happens with the ROM the `ale` crate bundles (loading it hung forever)",
)];

/// Why game `id` cannot be played, if it is one the `ale` crate bundles but we refuse.
pub fn unsupported(id: &str) -> Option<&'static str> {
    UNSUPPORTED
        .iter()
        .find(|(game, _)| *game == id)
        .map(|(_, why)| *why)
}

rom_table! {
    adventure => Adventure,
    air_raid => AirRaid,
    alien => Alien,
    amidar => Amidar,
    assault => Assault,
    asterix => Asterix,
    asteroids => Asteroids,
    atlantis => Atlantis,
    bank_heist => BankHeist,
    battle_zone => BattleZone,
    beam_rider => BeamRider,
    berzerk => Berzerk,
    bowling => Bowling,
    boxing => Boxing,
    breakout => Breakout,
    carnival => Carnival,
    centipede => Centipede,
    chopper_command => ChopperCommand,
    crazy_climber => CrazyClimber,
    demon_attack => DemonAttack,
    double_dunk => DoubleDunk,
    elevator_action => ElevatorAction,
    enduro => Enduro,
    fishing_derby => FishingDerby,
    freeway => Freeway,
    frostbite => Frostbite,
    gopher => Gopher,
    gravitar => Gravitar,
    hero => Hero,
    ice_hockey => IceHockey,
    jamesbond => JamesBond,
    journey_escape => JourneyEscape,
    kaboom => Kaboom,
    kangaroo => Kangaroo,
    krull => Krull,
    kung_fu_master => KungFuMaster,
    montezuma_revenge => MontezumaRevenge,
    ms_pacman => MsPacman,
    name_this_game => NameThisGame,
    phoenix => Phoenix,
    pitfall => Pitfall,
    pong => Pong,
    pooyan => Pooyan,
    private_eye => PrivateEye,
    qbert => QBert,
    riverraid => RiverRaid,
    road_runner => RoadRunner,
    robotank => RoboTank,
    seaquest => Seaquest,
    skiing => Skiing,
    space_invaders => SpaceInvaders,
    star_gunner => StarGunner,
    tennis => Tennis,
    time_pilot => TimePilot,
    tutankham => Tutankham,
    up_n_down => UpNDown,
    venture => Venture,
    video_pinball => VideoPinball,
    wizard_of_wor => WizardOfWor,
    yars_revenge => YarsRevenge,
    zaxxon => Zaxxon,
}

/// The bundled ROM of game `id`, or [`Error::UnknownEnv`](crate::Error::UnknownEnv) listing the
/// known ids.
pub fn rom_or_err(id: &str) -> crate::Result<BundledRom> {
    if let Some(why) = unsupported(id) {
        return Err(crate::Error::Invalid(format!("Atari game `{id}`: {why}")));
    }
    bundled_rom(id).ok_or_else(|| crate::Error::UnknownEnv {
        id: id.to_string(),
        known: GAME_IDS.join(", "),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_id_maps_to_the_rom_file_of_the_same_name() {
        // The `ale` crate bundles 62; `defender` is unsupported.
        assert_eq!(GAME_IDS.len(), 61);
        for id in GAME_IDS {
            let rom = bundled_rom(id).expect("id in table");
            assert_eq!(rom.filename(), format!("{id}.bin"));
            assert!(rom.data().len() >= 2048, "{id}: ROM too small");
        }
    }

    #[test]
    fn unknown_id_lists_known_ids() {
        let err = rom_or_err("space_invader")
            .err()
            .expect("unknown id")
            .to_string();
        assert!(err.contains("space_invader`") && err.contains("space_invaders"));
    }

    /// A bundled game that cannot be played is refused at once, saying why (it used to hang).
    #[test]
    fn unsupported_games_are_refused_with_the_reason() {
        assert!(!GAME_IDS.contains(&"defender"));
        for err in [
            rom_or_err("defender").err().expect("refused").to_string(),
            crate::env::registry::make("defender")
                .err()
                .expect("refused")
                .to_string(),
        ] {
            assert!(
                err.contains("defender") && err.contains("not supported"),
                "{err}"
            );
        }
    }
}
