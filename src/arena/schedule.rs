//! Who plays whom: a gauntlet (every student against each reference), a round robin,
//! or a knockout as the CS561 Fall 2014 competition ran it; the pairings' games
//! played `-j` at a time, their records in the schedule's order whatever `-j`.

use std::io;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use super::game::{self, Answer, Fault, Game, Player};
use super::journal::Ledger;
use super::protocol::tristate::Tristate;
use super::protocol::{Agent, Built, Protocol, Terms};
use super::reference::Reference;
use super::shaped::{self, Board};
use crate::grading::shard::Shard;
use crate::rules::{Color, Position};
use crate::sandbox::Sandbox;
use crate::splitmix::SplitMix64;

/// How the players meet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Every student against each opponent.
    Gauntlet,
    /// Every player against every other.
    RoundRobin,
    /// Random seeded pairs, the majority of each pairing advancing, to one winner.
    Knockout,
}

/// A player as the TA named it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entrant {
    /// An agent run in the sandbox (a student's folder, `cmd:COMMAND` or
    /// `nboard:COMMAND`).
    Agent(Agent),
    /// A reference run in the referee's process.
    Reference(Reference),
}

impl Entrant {
    /// Its name in reports.
    pub fn name(&self) -> String {
        match self {
            Entrant::Agent(agent) => agent.name.clone(),
            Entrant::Reference(reference) => reference.name(),
        }
    }
}

/// An agent's own adapter and terms, when it does not speak the tournament's
/// protocol ([`super::protocol::Speaks::own`]).
type Own = Option<(Box<dyn Protocol + Send>, Terms)>;

/// A player ready to play.
pub(super) enum Ready {
    Built(Built, Own),
    Failed(Fault),
    Reference(Reference),
    /// Not built: it plays in another shard.
    Elsewhere,
}

/// The students built once (for a legality suite), to play their games with the
/// same builds.
pub struct Builds(pub(super) Vec<Ready>);

/// A tournament's settings.
pub struct Tournament<'a> {
    /// The agents' protocol.
    pub protocol: &'a dyn Protocol,
    /// The sandbox of every run.
    pub sandbox: &'a Sandbox,
    /// The time and answer terms.
    pub terms: &'a Terms,
    /// The openings, in the order pairings play them.
    pub openings: Vec<Position>,
    /// Games per pairing.
    pub games: usize,
    /// Games played at once.
    pub jobs: usize,
    /// The seed of the knockout's draw and its last tie-break.
    pub seed: u64,
    /// The journal: games it holds are taken, games played are recorded.
    pub ledger: Option<&'a Ledger>,
    /// Play only this slice of the pairings (not of a knockout).
    pub shard: Option<Shard>,
    /// Games on Tri-state boards of any shape instead of the openings: these board
    /// files, in the order pairings play them, the agents asked through this
    /// adapter ([`super::shaped::play`]; not journaled).
    pub boards: Option<(Vec<Board>, Tristate)>,
}

/// A game played, its players named by their index in [`Results::players`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    /// White's index.
    pub white: usize,
    /// Black's index.
    pub black: usize,
    /// The game.
    pub game: Game,
}

/// One pairing of a knockout.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// The two players (the second `None`: a bye).
    pub players: (usize, Option<usize>),
    /// Who advances.
    pub advances: usize,
    /// Why, in words (the score; a tie-break when one decided).
    pub why: String,
}

/// What a tournament gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Results {
    /// The players' names: the students, then the opponents.
    pub players: Vec<String>,
    /// How many of the players are students (the first ones; the opponents follow).
    pub students: usize,
    /// The build failures, by player.
    pub build_failures: Vec<(usize, Fault)>,
    /// Every game, in the schedule's order.
    pub games: Vec<Played>,
    /// The knockout's rounds (empty for the other formats).
    pub rounds: Vec<Vec<Pairing>>,
}

/// A player whose build failed: every answer forfeits.
pub(super) struct Withdrawn(pub(super) Fault);

impl Player for Withdrawn {
    fn answer(&mut self, _position: Position, _number: usize) -> io::Result<Answer> {
        Ok(Answer {
            verdict: Err(self.0.clone()),
            text: String::new(),
            cpu: std::time::Duration::ZERO,
        })
    }
}

/// A game to play: the pairing's players and the game's index in it.
#[derive(Clone, Copy, Debug)]
struct Fixture {
    first: usize,
    second: usize,
    index: usize,
}

impl Tournament<'_> {
    /// Builds every player (the students unless `builds` holds them already), then
    /// plays `format` between `students` and `opponents`.
    pub fn run(
        &self,
        format: Format,
        students: &[Entrant],
        opponents: &[Entrant],
        builds: Option<Builds>,
    ) -> io::Result<Results> {
        let entrants: Vec<&Entrant> = students.iter().chain(opponents).collect();
        let all = entrants.len();
        let mut pairs: Vec<(usize, usize)> = match format {
            Format::Gauntlet => (0..students.len())
                .flat_map(|s| (students.len()..all).map(move |o| (s, o)))
                .collect(),
            Format::RoundRobin => (0..all)
                .flat_map(|a| (a + 1..all).map(move |b| (a, b)))
                .collect(),
            Format::Knockout => Vec::new(),
        };
        let mut playing = vec![true; all];
        if let Some(shard) = self.shard {
            pairs = super::shard::pairs(shard, format, pairs);
            playing = vec![false; all];
            for &(a, b) in &pairs {
                playing[a] = true;
                playing[b] = true;
            }
        }
        let ready = match builds {
            Some(Builds(mut ready)) if ready.len() == students.len() => {
                let others: Vec<&Entrant> = opponents.iter().collect();
                ready.extend(self.build_all(&others, &playing[students.len()..])?);
                ready
            }
            _ => self.build_all(&entrants, &playing)?,
        };
        let build_failures = failures(&ready);
        let mut results = Results {
            players: entrants.iter().map(|e| e.name()).collect(),
            students: students.len(),
            build_failures,
            games: Vec::new(),
            rounds: Vec::new(),
        };
        if format == Format::Knockout {
            self.knockout(&ready, all, &mut results)?;
            return Ok(results);
        }
        results.games = self.play_pairs(&ready, &pairs)?;
        Ok(results)
    }

    /// Builds the entrants, `jobs` at a time.
    pub(super) fn build_all(
        &self,
        entrants: &[&Entrant],
        playing: &[bool],
    ) -> io::Result<Vec<Ready>> {
        let built = self.parallel(entrants.len(), |i| match entrants[i] {
            _ if !playing[i] => Ok(Ready::Elsewhere),
            Entrant::Agent(agent) => {
                let own = agent.speaks.own(self.terms);
                let (protocol, terms): (&dyn Protocol, &Terms) = match &own {
                    Some((protocol, terms)) => (protocol.as_ref(), terms),
                    None => (self.protocol, self.terms),
                };
                Ok(match protocol.build(agent, self.sandbox, terms)? {
                    Ok(built) => Ready::Built(built, own),
                    Err(fault) => Ready::Failed(fault),
                })
            }
            Entrant::Reference(reference) => Ok(Ready::Reference(*reference)),
        })?;
        Ok(built)
    }

    /// Seats a player for one game: a built agent with its protocol under its terms
    /// (the tournament's, or its own).
    pub(super) fn seat<'a>(&'a self, ready: &'a Ready) -> io::Result<Box<dyn Player + 'a>> {
        match ready {
            Ready::Built(built, None) => self.protocol.seat(built, self.sandbox, self.terms),
            Ready::Built(built, Some((protocol, terms))) => {
                protocol.seat(built, self.sandbox, terms)
            }
            Ready::Failed(fault) => Ok(Box::new(Withdrawn(fault.clone()))),
            Ready::Reference(reference) => Ok(reference.seat()),
            Ready::Elsewhere => Err(io::Error::other("a player of another shard was seated")),
        }
    }

    /// Runs `work(0..count)` on `jobs` threads; the results in index order.
    pub(super) fn parallel<T: Send>(
        &self,
        count: usize,
        work: impl Fn(usize) -> io::Result<T> + Sync,
    ) -> io::Result<Vec<T>> {
        let next = AtomicUsize::new(0);
        let slots: Vec<Mutex<Option<io::Result<T>>>> =
            (0..count).map(|_| Mutex::new(None)).collect();
        std::thread::scope(|scope| {
            for _ in 0..self.jobs.clamp(1, count.max(1)) {
                scope.spawn(|| loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    if i >= count {
                        break;
                    }
                    let result = work(i);
                    let failed = result.is_err();
                    *slots[i].lock().unwrap_or_else(|e| e.into_inner()) = Some(result);
                    if failed {
                        // No more games once the referee itself failed.
                        next.store(count, Ordering::SeqCst);
                    }
                });
            }
        });
        slots
            .into_iter()
            .map(|slot| {
                slot.into_inner()
                    .unwrap_or_else(|e| e.into_inner())
                    .unwrap_or_else(|| Err(io::Error::other("a game was not played")))
            })
            .collect()
    }

    /// Plays every game of `pairs`.
    fn play_pairs(&self, ready: &[Ready], pairs: &[(usize, usize)]) -> io::Result<Vec<Played>> {
        let fixtures: Vec<Fixture> = pairs
            .iter()
            .flat_map(|&(first, second)| {
                (0..self.games).map(move |index| Fixture {
                    first,
                    second,
                    index,
                })
            })
            .collect();
        if !self.protocol.state_across_games() {
            return self.parallel(fixtures.len(), |i| self.play_fixture(ready, fixtures[i]));
        }
        // An agent's files go from one of its games to the next: its games one at a
        // time, in order; pairings with no agent in common (a knockout's round, a
        // gauntlet against references) at once.
        let mut seen = std::collections::HashSet::new();
        let disjoint = pairs
            .iter()
            .flat_map(|&(a, b)| [a, b])
            .filter(|&i| !matches!(ready[i], Ready::Reference(_)))
            .all(|i| seen.insert(i));
        let per_pair = |k: usize| -> io::Result<Vec<Played>> {
            fixtures[k * self.games..(k + 1) * self.games]
                .iter()
                .map(|&fixture| self.play_fixture(ready, fixture))
                .collect()
        };
        let games = if disjoint {
            self.parallel(pairs.len(), per_pair)?
        } else {
            (0..pairs.len()).map(per_pair).collect::<io::Result<_>>()?
        };
        Ok(games.into_iter().flatten().collect())
    }

    /// Plays one game: the pairing's `index`-th, on opening `index / 2`, the first
    /// player white in even games.
    fn play_fixture(&self, ready: &[Ready], fixture: Fixture) -> io::Result<Played> {
        let (white, black) = if fixture.index.is_multiple_of(2) {
            (fixture.first, fixture.second)
        } else {
            (fixture.second, fixture.first)
        };
        if let Some((boards, tristate)) = &self.boards {
            let board = &boards[(fixture.index / 2) % boards.len()];
            let mut white_seat = self.seat_on_boards(&ready[white], tristate)?;
            let mut black_seat = self.seat_on_boards(&ready[black], tristate)?;
            let game = shaped::play(white_seat.as_mut(), black_seat.as_mut(), &board.problem)?;
            return Ok(Played { white, black, game });
        }
        let start = self
            .protocol
            .start()
            .unwrap_or(self.openings[(fixture.index / 2) % self.openings.len()]);
        if let Some(game) = self
            .ledger
            .and_then(|ledger| ledger.take(white, black, fixture.index, start))
        {
            return Ok(Played { white, black, game });
        }
        let mut white_seat = self.seat(&ready[white])?;
        let mut black_seat = self.seat(&ready[black])?;
        let mut game = game::play(white_seat.as_mut(), black_seat.as_mut(), start)?;
        game.bank = self.protocol.bank();
        if let Some(ledger) = self.ledger {
            ledger
                .record(white, black, fixture.index, &game)
                .map_err(io::Error::other)?;
        }
        Ok(Played { white, black, game })
    }

    /// The knockout: each round, the players left drawn into random pairs (the seed
    /// and the round), the last one alone getting a bye; each pairing [`Self::games`]
    /// games; the one with more points (a win 1, a draw 1/2) advances, then the one
    /// with more discs over the pairing's games, then a seeded coin. An agent whose
    /// build failed is withdrawn (CS561 Fall 2014: "among all remaining students,
    /// select random pairs"): it is not drawn and plays no game.
    fn knockout(&self, ready: &[Ready], all: usize, results: &mut Results) -> io::Result<()> {
        let mut left: Vec<usize> = (0..all)
            .filter(|&i| !matches!(ready[i], Ready::Failed(_)))
            .collect();
        let mut random = SplitMix64::new(self.seed ^ 0x6b6e_6f63_6b6f_7574);
        while left.len() > 1 {
            for i in (1..left.len()).rev() {
                let j = random.below(i as u64 + 1) as usize;
                left.swap(i, j);
            }
            let pairs: Vec<(usize, usize)> = left
                .chunks(2)
                .filter(|c| c.len() == 2)
                .map(|c| (c[0], c[1]))
                .collect();
            let games = self.play_pairs(ready, &pairs)?;
            let mut round = Vec::new();
            let mut next = Vec::new();
            for (k, &(a, b)) in pairs.iter().enumerate() {
                let played = &games[k * self.games..(k + 1) * self.games];
                let (points, discs) = tally(played, a);
                let (advances, why) = if points.0 != points.1 {
                    let winner = if points.0 > points.1 { a } else { b };
                    (
                        winner,
                        format!("{}-{} in points", half(points.0), half(points.1)),
                    )
                } else if discs.0 != discs.1 {
                    let winner = if discs.0 > discs.1 { a } else { b };
                    (
                        winner,
                        format!(
                            "{}-{} in points, {}-{} in discs",
                            half(points.0),
                            half(points.1),
                            discs.0,
                            discs.1
                        ),
                    )
                } else {
                    let winner = if random.below(2) == 0 { a } else { b };
                    (
                        winner,
                        format!(
                            "{}-{} in points and {}-{} in discs: a seeded coin",
                            half(points.0),
                            half(points.1),
                            discs.0,
                            discs.1
                        ),
                    )
                };
                round.push(Pairing {
                    players: (a, Some(b)),
                    advances,
                    why,
                });
                next.push(advances);
            }
            if left.len() % 2 == 1 {
                let alone = *left.last().expect("an odd count is not zero");
                round.push(Pairing {
                    players: (alone, None),
                    advances: alone,
                    why: "a bye".into(),
                });
                next.push(alone);
            }
            results.games.extend(games);
            results.rounds.push(round);
            next.sort_unstable();
            left = next;
        }
        Ok(())
    }
}

/// The players whose build failed, with the fault.
pub(super) fn failures(ready: &[Ready]) -> Vec<(usize, Fault)> {
    ready
        .iter()
        .enumerate()
        .filter_map(|(i, r)| match r {
            Ready::Failed(fault) => Some((i, fault.clone())),
            _ => None,
        })
        .collect()
}

/// The points (in halves) and discs of `a` and of its opponent over `played`.
fn tally(played: &[Played], a: usize) -> ((u32, u32), (u32, u32)) {
    let (mut points, mut discs) = ((0, 0), (0, 0));
    for p in played {
        let (white, black) = p.game.discs();
        let (a_color, a_discs, b_discs) = if p.white == a {
            (Color::White, white, black)
        } else {
            (Color::Black, black, white)
        };
        discs.0 += a_discs;
        discs.1 += b_discs;
        match p.game.winner() {
            None => {
                points.0 += 1;
                points.1 += 1;
            }
            Some(c) if c == a_color => points.0 += 2,
            Some(_) => points.1 += 2,
        }
    }
    (points, discs)
}

/// Points counted in halves, in words (`2.5`).
fn half(halves: u32) -> String {
    if halves.is_multiple_of(2) {
        (halves / 2).to_string()
    } else {
        format!("{}.5", halves / 2)
    }
}
