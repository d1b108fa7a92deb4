//! Bad input never panics and always names the file and the right line;
//! instances survive a write/read round trip; the shipped MovingAI files
//! parse.

use std::path::{Path, PathBuf};

use bevy_jpst::grid::{Cell, MapLimits, NavGrid, ObstacleEnd, StaticGrid};
use bevy_jpst::io::{
    Block, FormatError, Instance, Obstacle, parse_map, parse_map_within, parse_scen, read_map,
    read_scen,
};
use bevy_jpst::search::{GoalPolicy, Query};
use proptest::prelude::*;

fn open_6x4(name: &str) -> Result<StaticGrid, FormatError> {
    assert_eq!(name, "room.map");
    Ok(StaticGrid::open(6, 4).unwrap())
}

fn parse_instance(text: &str) -> Result<(Instance, NavGrid), FormatError> {
    Instance::parse(text, "case.instance", &mut open_6x4)
}

/// Asserts that `text` is refused at `line` of `case.instance`.
fn assert_instance_error(text: &str, line: usize) {
    match parse_instance(text) {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => {
            assert_eq!(e.file, "case.instance", "{e}");
            assert_eq!(e.line, line, "{e}\n{text}");
            assert!(e.to_string().starts_with("case.instance"), "{e}");
        }
    }
}

#[test]
fn every_malformed_instance_line_names_its_line() {
    // (line, why it is wrong); it becomes line 4 of the file.
    let cases = [
        ("teleport 1 1", "unknown keyword"),
        ("Block 1 1 0 1", "keywords are lower case"),
        ("block 1 1 0", "missing field"),
        ("block 1 1 0 1 9", "extra field"),
        ("block 1 one 0 1", "non-numeric field"),
        ("block 1 1 0 -1", "negative number"),
        ("block 1 1 0 1.5", "fraction"),
        ("block 6 0 0 1", "cell off the map (x)"),
        ("block 0 4 0 1", "cell off the map (y)"),
        ("block 1 1 5 5", "to == from"),
        ("block 1 1 5 4", "to < from"),
        ("block 1 1 0 4294967295", "to reaches u32::MAX"),
        ("block 1 1 0 99999999999", "to overflows u32"),
        ("block 1 1 inf inf", "from cannot be inf"),
        ("obstacle 0 park", "no cell"),
        ("obstacle 0", "no mode"),
        ("obstacle 0 stop 1,1", "bad mode"),
        ("obstacle t park 1,1", "non-numeric t0"),
        ("obstacle 0 park 1,1 2,2", "diagonal step"),
        ("obstacle 0 park 1,1 3,1", "jump"),
        ("obstacle 0 park 1,1 1 2", "cell without comma"),
        ("obstacle 0 park 1,1 1,x", "non-numeric cell"),
        ("obstacle 0 vanish 5,3 6,3", "cell off the map"),
        (
            "obstacle 4294967294 vanish 1,1 1,2",
            "last tick reaches u32::MAX",
        ),
        ("obstacle 4294967295 park 1,1", "t0 is u32::MAX"),
        ("query 0 0 1", "missing goal y"),
        ("query 0 0 1 1 0 stay 2", "extra field"),
        ("query 0 0 1 x", "non-numeric"),
        ("query 0 0 6 0", "goal off the map"),
        ("query 9 0 1 1", "start off the map"),
        ("query 0 0 1 1 soon", "bad start or policy"),
        ("query 0 0 1 1 0 hover", "bad policy"),
        ("query 0 0 1 1 arrive 0", "policy before start"),
        ("query 0 0 1 1 4294967295", "start tick u32::MAX"),
        ("map room.map", "second map line"),
        ("jpst-instance 1", "second version line"),
    ];
    for (line, why) in cases {
        let text = format!("jpst-instance 1\nmap room.map\n# {why}\n{line}\nquery 0 0 1 1\n");
        assert_instance_error(&text, 4);
    }
}

#[test]
fn version_and_map_line_errors() {
    assert_instance_error("", 0);
    assert_instance_error("# nothing\n\n", 0);
    assert_instance_error("map room.map\n", 1);
    assert_instance_error("# c\njpst-instance 2\nmap room.map\n", 2);
    assert_instance_error("jpst-instance 1 extra\nmap room.map\n", 1);
    assert_instance_error("jpst-instance 1\n", 0);
    assert_instance_error("jpst-instance 1\n# c\n", 0);
    assert_instance_error("jpst-instance 1\nquery 0 0 1 1\nmap room.map\n", 2);
    assert_instance_error("jpst-instance 1\n\nobstacle 0 park 1,1\n", 3);
    assert_instance_error("jpst-instance 1\nblock 1 1 0 1\n", 2);
    assert_instance_error("jpst-instance 1\nmap\n", 2);
    assert_instance_error("jpst-instance 1\nmap a b\n", 2);
}

#[test]
fn crlf_comments_and_indentation_are_accepted() {
    let text = "\u{feff}# header comment\r\n\tjpst-instance 1\r\n\r\n  map\troom.map\r\n\
                block 1 1 0 inf\r\n   # indented comment\r\nquery 0 0 5 3\t2\tstay";
    let (instance, grid) = parse_instance(text).unwrap();
    assert_eq!(instance.blocks.len(), 1);
    assert_eq!(
        instance.queries,
        vec![
            Query::new(Cell::new(0, 0), Cell::new(5, 3))
                .starting_at(2)
                .with_policy(GoalPolicy::Stay)
        ]
    );
    assert!(!grid.is_free(Cell::new(1, 1), 0));
}

/// A fresh folder under the system temp dir for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("bevy_jpst_io_{}_{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("maps")).unwrap();
    dir
}

#[test]
fn read_resolves_the_map_next_to_the_instance() {
    let dir = scratch("resolve");
    std::fs::write(
        dir.join("maps/r.map"),
        "type octile\nheight 2\nwidth 3\nmap\n..@\n...\n",
    )
    .unwrap();
    let path = dir.join("a.instance");
    std::fs::write(&path, "jpst-instance 1\nmap maps/r.map\nquery 0 0 2 1\n").unwrap();
    let (instance, grid) = Instance::read(&path).unwrap();
    assert_eq!(instance.map, "maps/r.map");
    assert_eq!((grid.width(), grid.height()), (3, 2));
    assert!(!grid.walls().is_passable(Cell::new(2, 0)));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn read_reports_map_problems_usefully() {
    let dir = scratch("map_errors");
    std::fs::write(
        dir.join("maps/bad.map"),
        "type octile\r\nheight 2\r\nwidth 3\r\nmap\r\n...\r\n..\r\n",
    )
    .unwrap();
    let bad = dir.join("bad.instance");
    std::fs::write(&bad, "jpst-instance 1\n\nmap maps/bad.map\n").unwrap();
    let e = Instance::read(&bad).unwrap_err();
    assert!(e.file.ends_with("bad.map"), "{e}");
    assert_eq!(e.line, 6, "{e}");
    assert!(
        e.message.contains("line 3 of") && e.message.contains("bad.instance"),
        "{e}"
    );

    let missing = dir.join("missing.instance");
    std::fs::write(&missing, "jpst-instance 1\nmap maps/none.map\n").unwrap();
    let e = Instance::read(&missing).unwrap_err();
    assert!(e.file.ends_with("missing.instance"), "{e}");
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("none.map"), "{e}");

    let e = Instance::read(&dir.join("absent.instance")).unwrap_err();
    assert!(e.file.ends_with("absent.instance"), "{e}");
    assert_eq!(e.line, 0);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn write_then_read_gives_the_same_instance() {
    let dir = scratch("write");
    std::fs::write(
        dir.join("maps/o.map"),
        "type octile\nheight 4\nwidth 6\nmap\n......\n......\n......\n......\n",
    )
    .unwrap();
    let instance = Instance {
        map: "maps/o.map".into(),
        blocks: vec![Block {
            cell: Cell::new(2, 2),
            from: 1,
            to: None,
        }],
        obstacles: vec![Obstacle {
            t0: 3,
            end: ObstacleEnd::Vanish,
            cells: vec![Cell::new(0, 0), Cell::new(1, 0)],
        }],
        queries: vec![Query::new(Cell::new(0, 3), Cell::new(5, 0))],
    };
    let path = dir.join("w.instance");
    instance.write(&path).unwrap();
    assert_eq!(Instance::read(&path).unwrap().0, instance);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Asserts that a map text is refused at `line` of `case.map`.
fn assert_map_error(text: &str, line: usize) {
    match parse_map(text, "case.map") {
        Ok(_) => panic!("accepted:\n{text}"),
        Err(e) => {
            assert_eq!((e.file.as_str(), e.line), ("case.map", line), "{e}\n{text}");
        }
    }
}

#[test]
fn every_malformed_map_line_names_its_line() {
    let rows = "....\n.@@.\n....\n";
    assert!(
        parse_map(
            &format!("type octile\nheight 3\nwidth 4\nmap\n{rows}"),
            "ok"
        )
        .is_ok()
    );
    assert_map_error("", 1);
    assert_map_error("\n", 1);
    assert_map_error("version 1\n", 1);
    assert_map_error("type\nheight 3\nwidth 4\nmap\n", 1);
    assert_map_error("type octile\nlength 3\nwidth 4\nmap\n", 2);
    assert_map_error("type octile\nheight three\nwidth 4\nmap\n", 2);
    assert_map_error("type octile\nheight -3\nwidth 4\nmap\n", 2);
    assert_map_error("type octile\nheight 3\nwidth 4 4\nmap\n", 3);
    assert_map_error("type octile\nheight 3\n", 3);
    assert_map_error("type octile\nheight 3\nwidth 4\nmap 2\n", 4);
    assert_map_error("type octile\nheight 3\nwidth 4\n\nmap\n", 4);
    assert_map_error("type octile\nheight 3\nwidth 4\nmap\n....\n...\n....", 6);
    assert_map_error(
        "type octile\nheight 3\nwidth 4\nmap\n....\n.....\n....\n",
        6,
    );
    assert_map_error(&format!("type octile\nheight 4\nwidth 4\nmap\n{rows}"), 8);
    assert_map_error(
        &format!("type octile\nheight 4\nwidth 4\nmap\n{rows}\n\n"),
        8,
    );
    assert_map_error(&format!("type octile\nheight 2\nwidth 4\nmap\n{rows}"), 7);
    assert_map_error(
        &format!("type octile\nheight 3\nwidth 4\nmap\n{rows}\n@@@@\n"),
        9,
    );
}

#[test]
fn absurd_map_headers_are_refused_before_allocating() {
    for (height, width) in [
        ("10", "4000000000"),
        ("4000000000", "4000000000"),
        ("65536", "65536"),
        ("100000", "1"),
        ("0", "5"),
        ("18446744073709551615", "18446744073709551615"),
    ] {
        let text = format!("type octile\nheight {height}\nwidth {width}\nmap\n");
        let e = parse_map(&text, "huge.map").unwrap_err();
        assert_eq!(e.line, 3, "{e}");
        assert!(e.message.contains("not supported"), "{e}");
    }
    let e = parse_map(
        "type octile\nheight 1\nwidth 99999999999999999999\nmap\n",
        "h",
    )
    .unwrap_err();
    assert_eq!(e.line, 3, "{e}");
}

#[test]
fn maps_over_the_configured_limits_are_refused_with_the_limit_named() {
    let text = "type octile\nheight 5000\nwidth 10\nmap\n";
    let e = parse_map(text, "tall.map").unwrap_err();
    assert_eq!(e.line, 3, "{e}");
    assert!(
        e.message.contains("over the map limit: at most 4096x4096"),
        "{e}"
    );
    let small = MapLimits::new(8, 8, 64);
    let e = parse_map_within("type octile\nheight 3\nwidth 9\nmap\n", "w.map", &small).unwrap_err();
    assert!(e.message.contains("at most 8x8 and 64 cells"), "{e}");
    let grid = parse_map_within(
        "type octile\nheight 2\nwidth 3\nmap\n...\n.@.\n",
        "ok",
        &small,
    )
    .unwrap();
    assert_eq!((grid.width(), grid.height()), (3, 2));
}

#[test]
fn every_malformed_scen_line_names_its_line() {
    let good = "0\tm.map\t8\t8\t1\t2\t3\t4\t5.5";
    assert_eq!(
        parse_scen(&format!("version 1\n{good}\n"), "s")
            .unwrap()
            .len(),
        1
    );
    let e = parse_scen("", "case.scen").unwrap_err();
    assert_eq!((e.file.as_str(), e.line), ("case.scen", 0));
    for (text, line) in [
        ("version 2\n".to_string(), 1),
        (format!("{good}\n"), 1),
        (format!("\n\nversion\n{good}\n"), 3),
    ] {
        let e = parse_scen(&text, "case.scen").unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("case.scen", line), "{e}");
    }
    for bad in [
        "0\tm.map\t8\t8\t1\t2\t3\t4",
        "0\tm.map\t8\t8\t1\t2\t3\t4\t5\t6",
        "zero\tm.map\t8\t8\t1\t2\t3\t4\t5",
        "0\tm.map\t8\t8\t1\t2\t3\tfour\t5",
        "0\tm.map\t8\t8\t8\t2\t3\t4\t5",
        "0\tm.map\t8\t8\t1\t2\t3\t8\t5",
        "0\tm.map\t8\t8\t1\t2\t3\t4\tfive",
        "0\tm.map\t8\t8\t1\t2\t3\t4\tinf",
        "0\tm.map\t8\t8\t1\t2\t3\t4\t-5",
    ] {
        let text = format!("version 1\n{good}\n\n{bad}\n{good}\n");
        let e = parse_scen(&text, "case.scen").unwrap_err();
        assert_eq!((e.file.as_str(), e.line), ("case.scen", 4), "{bad}: {e}");
    }
}

fn instance_strategy() -> impl Strategy<Value = Instance> {
    let cell = (0u32..6, 0u32..4).prop_map(|(x, y)| Cell::new(x, y));
    let block =
        (cell.clone(), 0u32..50, prop::option::of(1u32..50)).prop_map(|(cell, from, span)| Block {
            cell,
            from,
            to: span.map(|s| from + s),
        });
    // A random walk: 0 waits, 1..=4 move if the map allows it.
    let obstacle = (
        0u32..40,
        prop::bool::ANY,
        cell.clone(),
        prop::collection::vec(0u8..5, 0..12),
    )
        .prop_map(|(t0, park, first, steps)| {
            let mut cells = vec![first];
            let mut at = first;
            for step in steps {
                let next = match step {
                    1 if at.x + 1 < 6 => Cell::new(at.x + 1, at.y),
                    2 if at.x > 0 => Cell::new(at.x - 1, at.y),
                    3 if at.y + 1 < 4 => Cell::new(at.x, at.y + 1),
                    4 if at.y > 0 => Cell::new(at.x, at.y - 1),
                    _ => at,
                };
                cells.push(next);
                at = next;
            }
            let end = if park {
                ObstacleEnd::Park
            } else {
                ObstacleEnd::Vanish
            };
            Obstacle { t0, end, cells }
        });
    let query = (cell.clone(), cell, 0u32..100, prop::bool::ANY).prop_map(|(s, g, t, stay)| {
        let policy = if stay {
            GoalPolicy::Stay
        } else {
            GoalPolicy::Arrive
        };
        Query::new(s, g).starting_at(t).with_policy(policy)
    });
    (
        prop::collection::vec(block, 0..6),
        prop::collection::vec(obstacle, 0..6),
        prop::collection::vec(query, 0..6),
    )
        .prop_map(|(blocks, obstacles, queries)| Instance {
            map: "room.map".into(),
            blocks,
            obstacles,
            queries,
        })
}

proptest! {
    #[test]
    fn parse_of_to_text_round_trips(instance in instance_strategy()) {
        let text = instance.to_text();
        let (parsed, grid) = parse_instance(&text).unwrap();
        prop_assert_eq!(&parsed, &instance);
        prop_assert_eq!(parsed.to_text(), text);
        // The returned world is the one build_grid makes.
        let built = instance.build_grid(StaticGrid::open(6, 4).unwrap()).unwrap();
        for x in 0..6 {
            for y in 0..4 {
                for t in [0, 1, 5, 17, 40, 60, 1000] {
                    let c = Cell::new(x, y);
                    prop_assert_eq!(grid.is_free(c, t), built.is_free(c, t));
                }
            }
        }
    }

    #[test]
    fn arbitrary_text_never_panics(text in "[a-z0-9 ,\t\n#-]{0,200}") {
        let with_header = format!("jpst-instance 1\nmap room.map\n{text}");
        let _ = parse_instance(&with_header);
        let _ = parse_map(&format!("type octile\nheight 2\nwidth 3\nmap\n{text}"), "m");
        let _ = parse_scen(&format!("version 1\n{text}"), "s");
    }
}

const SHIPPED: [(&str, u32, u32, u64); 10] = [
    ("den520d", 256, 257, 28_178),
    ("brc202d", 530, 481, 43_151),
    ("ost003d", 194, 194, 13_214),
    ("lak303d", 194, 194, 14_784),
    ("Berlin_1_256", 256, 256, 47_540),
    ("Paris_1_256", 256, 256, 47_240),
    ("maze-128-128-1", 128, 128, 8_191),
    ("room-64-64-8", 64, 64, 3_232),
    ("empty-32-32", 32, 32, 1_024),
    ("random-32-32-10", 32, 32, 922),
];

fn assets() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("assets/maps")
}

#[test]
fn shipped_maps_and_scenarios_parse() {
    for (name, width, height, passable) in SHIPPED {
        let folder = assets().join(name);
        let map = read_map(&folder.join(format!("{name}.map"))).unwrap();
        assert_eq!((map.width(), map.height()), (width, height), "{name}");
        assert_eq!(map.passable_count(), passable, "{name}");
        for kind in ["random", "even"] {
            let rows = read_scen(&folder.join(format!("{name}-{kind}-1.scen"))).unwrap();
            assert!(!rows.is_empty(), "{name}-{kind}");
            for row in &rows {
                assert_eq!(row.map, format!("{name}.map"));
                assert_eq!((row.map_width, row.map_height), (width, height));
                assert!(map.is_passable(row.start), "{name}-{kind}: {row:?}");
                assert!(map.is_passable(row.goal), "{name}-{kind}: {row:?}");
            }
        }
    }
}

#[test]
fn line_endings_do_not_change_a_map() {
    let path = assets().join("Berlin_1_256/Berlin_1_256.map");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(
        !text.ends_with('\n'),
        "the published file has no final newline"
    );
    let lf = parse_map(&text, "lf").unwrap();
    let crlf = parse_map(&text.replace('\n', "\r\n"), "crlf").unwrap();
    let padded = parse_map(&format!("{text}\n\n\n"), "padded").unwrap();
    for g in [&crlf, &padded] {
        assert_eq!(g.rows(), lf.rows());
    }
}
