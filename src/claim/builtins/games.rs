//! Functions that make a game position, such as `nim(3, 4, 5)` and `cram(3, 4)`. Positions add
//! with `+` (the disjunctive sum); the questions about them are in `questions`.

use super::{Call, Function};
use crate::claim::{ClaimError, Value};
use crate::game::{Game, GameError};

/// The functions of this group.
pub(super) const FUNCTIONS: &[Function] = registry! {
    Function;
    game "nim", "nim(3, 4, 5)", [..], "Nim with these heaps" => |c| Ok(Value::Game(Game::nim(heaps(c)?)));
    game "misere_nim", "misere_nim(1, 1, 2)", [..], "misère Nim with these heaps" => |c| Ok(Value::Game(Game::misere_nim(heaps(c)?)));
    game "subtraction", "subtraction([1, 3, 4], n)", [2], "the subtraction game with these removals on a heap of n" => subtraction;
    game "octal", "octal(\"0.77\", n)", [2], "the octal game with this code on a heap of n" => |c| made(c, Game::octal(c.string(0, "\"0.77\"")?, c.count(1)?));
    game "hexadecimal", "hexadecimal(\"0.F\", n)", [2], "the hexadecimal game with this code on a heap of n: digit bits 1, 2, 4, 8 leave 0, 1, 2, 3 heaps" => |c| made(c, Game::hexadecimal(c.string(0, "\"0.F\"")?, c.count(1)?));
    game "kayles", "kayles(n)", [1], "Kayles, octal 0.77, on a row of n pins" => |c| Ok(Value::Game(Game::kayles(c.count(0)?)));
    game "dawsons_kayles", "dawsons_kayles(n)", [1], "Dawson's Kayles, octal 0.07, on a row of n pins" => |c| Ok(Value::Game(Game::dawsons_kayles(c.count(0)?)));
    game "grundys_game", "grundys_game(n)", [1], "Grundy's game on a heap of n" => |c| Ok(Value::Game(Game::grundys_game(c.count(0)?)));
    game "cram", "cram(rows, cols)", [2], "Cram on an empty rectangle" => |c| made(c, Game::cram(c.count(0)?, c.count(1)?));
    game "misere_cram", "misere_cram(rows, cols)", [2], "misère Cram on an empty rectangle" => |c| made(c, Game::misere_cram(c.count(0)?, c.count(1)?));
    game "cram_cells", "cram_cells(\"##./###\")", [1], "Cram on a set of cells: rows split by /, # free, . blocked" => |c| drawn(c, "\"##./###\"", Game::cram_cells);
    game "misere_cram_cells", "misere_cram_cells(\"##./###\")", [1], "misère Cram on a set of cells" => |c| drawn(c, "\"##./###\"", Game::misere_cram_cells);
    game "green_hackenbush", "green_hackenbush(\"0-1 1-2 1-3\")", [1], "Green Hackenbush on these edges, vertex 0 the ground" => |c| drawn(c, "\"0-1 1-2 1-3\"", Game::green_hackenbush);
    game "northcott", "northcott(\"W..B/B.W\")", [1], "Northcott's game, one row per /" => |c| drawn(c, "\"W..B/B.W\"", Game::northcott);
    game "twins", "twins(n)", [1], "Twins: one heads coin at place n of a row (from 0); a move turns two coins" => |c| Ok(Value::Game(Game::twins(c.count(0)?)));
    game "turning_turtles", "turning_turtles(n)", [1], "Turning Turtles: one heads coin at place n; a move turns one or two coins" => |c| Ok(Value::Game(Game::turning_turtles(c.count(0)?)));
    game "ruler", "ruler(n)", [1], "the Ruler game: one heads coin at place n; a move turns a run of coins" => |c| Ok(Value::Game(Game::ruler(c.count(0)?)));
    game "turning_corners", "turning_corners(x, y)", [2], "Turning Corners: one heads coin at (x, y) of a grid; a move turns a rectangle's corners" => |c| Ok(Value::Game(Game::turning_corners(c.count(0)?, c.count(1)?)));
};

/// Every argument as a heap size.
fn heaps(c: &Call<'_>) -> Result<Vec<u64>, ClaimError> {
    (0..c.args.len()).map(|i| c.count(i)).collect()
}

/// A position the engine made from counts; its errors are about the whole call.
fn made(c: &Call<'_>, game: Result<Game, GameError>) -> Result<Value, ClaimError> {
    game.map(Value::Game).map_err(|e| c.game_error(e))
}

/// A position drawn in a string, such as a board; its errors point into the string.
fn drawn(
    c: &Call<'_>,
    example: &str,
    make: fn(&str) -> Result<Game, GameError>,
) -> Result<Value, ClaimError> {
    make(c.string(0, example)?)
        .map(Value::Game)
        .map_err(|e| super::game_error(&c.at(0), e))
}

fn subtraction(c: &Call<'_>) -> Result<Value, ClaimError> {
    let Value::List(items) = &c.args[0] else {
        return Err(ClaimError::new(
            c.at(0),
            "expected a list of removals such as [1, 3, 4]",
        ));
    };
    let set = items
        .iter()
        .map(|v| crate::claim::value::as_count(v, &c.at(0)))
        .collect::<Result<Vec<_>, _>>()?;
    made(c, Game::subtraction(&set, c.count(1)?))
}
