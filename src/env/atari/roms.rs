//! The table of games: our snake-case ids ⇄ the ROMs bundled by the `ale` crate.
//!
//! Ids equal ALE's ROM file stems (`space_invaders`, `jamesbond`, `riverraid`, …), the names
//! ale-py uses too, so ALE picks the right per-game settings from the file name we load.

use ale::BundledRom;

macro_rules! rom_table {
    ($($id:ident => $variant:ident,)*) => {
        /// Every game id the `ale` crate bundles a ROM for, in alphabetical order.
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
    defender => Defender,
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
        assert_eq!(GAME_IDS.len(), 62);
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
}
