//! Long runs of the plugin: a busy crowd never collides, its reservation
//! table stays bounded, and the trajectories do not depend on how many
//! threads plan in the background.

mod plugin_common;

use plugin_common::crowd;

#[test]
fn soak_300_units_for_2000_ticks() {
    let (_, hits, sizes) = crowd(300, 64, 2000, 2);
    assert_eq!(hits, 0, "vertex or swap collisions between units");
    // Memory: the reservation table after the last quarter is no bigger than
    // after the first, give or take what is reserved at that moment.
    let (first, last) = (sizes[0], sizes[sizes.len() - 1]);
    assert!(last <= first * 3 / 2 + 200, "reservations grew: {sizes:?}");
}

#[test]
fn trajectories_do_not_depend_on_the_thread_count() {
    let (one, hits_one, _) = crowd(120, 48, 400, 1);
    let (four, hits_four, _) = crowd(120, 48, 400, 4);
    assert_eq!((hits_one, hits_four), (0, 0));
    assert_eq!(one, four);
}
