//! Following a lesson: its steps open in a session of their own (the learner's
//! tabs are never touched), the learner's own action advances a waiting step,
//! and leaving the lesson brings the learner's tab back as it was.

use super::{Live, Notice, Page, Store};
use crate::lessons::{self, Lesson, StepView};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

/// A lesson in progress.
#[derive(Clone, Debug)]
pub struct LessonRun {
    /// The lesson.
    pub lesson: &'static Lesson,
    /// 0-based step.
    pub step: usize,
    /// The rendered step (narration computed by the engine).
    pub view: Rc<StepView>,
    /// The learner changed the lesson's scenario away from the lesson's path.
    pub off_track: bool,
    /// The lesson's own session (the learner's tabs stay as they were).
    pub session: Live,
    /// Whether the lesson's session is on screen (false: the learner went to
    /// their own tab and may resume the lesson).
    pub shown: bool,
    /// The learner plays freely from the lesson's state: the steps no longer
    /// guide (their own tab is still kept).
    pub free: bool,
    /// The learner's prediction for this step's round (an option's id).
    pub guess: Option<String>,
}

impl LessonRun {
    /// Whether the step waits for the learner's action.
    pub fn waiting(&self) -> bool {
        self.view.ask.is_some()
    }
}

/// Lesson progress: the steps seen of each lesson, and the lessons finished
/// (their last step reached).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Progress {
    /// Lesson id → 0-based steps seen.
    #[serde(default)]
    pub visited: BTreeMap<String, BTreeSet<usize>>,
    /// Lesson ids finished.
    #[serde(default)]
    pub completed: BTreeSet<String>,
}

impl Progress {
    fn visit(&mut self, id: &str, step: usize, last: bool) {
        self.visited.entry(id.to_string()).or_default().insert(step);
        if last {
            self.completed.insert(id.to_string());
        }
    }

    /// Steps seen of lesson `id`.
    pub fn seen(&self, id: &str) -> usize {
        self.visited.get(id).map_or(0, BTreeSet::len)
    }
}

/// Lesson navigation.
#[derive(Clone, Debug, PartialEq)]
pub enum LessonMsg {
    /// Open lesson `id` at 0-based step.
    Open(String, usize),
    /// Open a `#lesson=<id>&step=<n>` link (a bad one is reported).
    Link(String),
    /// Next step (refused with a hint while the step waits for the learner).
    Next,
    /// Previous step.
    Prev,
    /// Apply the ask's action for the learner.
    DoIt,
    /// Put the lesson's scenario back at the current step.
    Back,
    /// Show the lesson again after visiting a tab.
    Resume,
    /// Stop following the steps and play freely with the lesson's state.
    Free,
    /// Leave the lesson: the learner's own tab comes back.
    Leave,
    /// Predict what the step's round will do (an option of [`Store::prediction`]).
    Guess(String),
}

impl Store {
    /// Open step `k` of `lesson` in the lesson's own session.
    pub(super) fn open_lesson(&mut self, lesson: &'static Lesson, k: usize) -> Result<(), String> {
        let sc = lesson
            .scenario_at(k)
            .ok_or_else(|| format!("lesson {} has no step {}", lesson.id, k + 1))?;
        let session = Live::open(&sc)
            .map_err(|e| format!("lesson {} step {} did not replay: {e}", lesson.id, k + 1))?;
        self.show_lesson(lesson, k, session)
    }

    /// Show step `k` of `lesson` on `session` (a replay of the step's scenario,
    /// or the learner's own session when their action led there: it holds the
    /// same state, and keeping it lets the page play that action's motions).
    fn show_lesson(&mut self, lesson: &'static Lesson, k: usize, session: Live) -> Result<(), String> {
        let view = lesson.render(k).map_err(|e| e.to_string())?;
        self.highlight = view.focus.first().cloned();
        self.progress.visit(lesson.id, k, view.free_play);
        self.tab = lesson.system;
        self.lesson = Some(LessonRun {
            lesson,
            step: k,
            view: Rc::new(view),
            off_track: false,
            session,
            shown: true,
            free: false,
            guess: None,
        });
        self.page = Page::Playground;
        self.playing = false;
        self.compare = None;
        self.spread = false;
        self.field_error = None;
        Ok(())
    }

    /// Open a `#lesson=<id>&step=<n>` link; a bad one is reported and changes nothing.
    pub(super) fn open_link(&mut self, fragment: &str) {
        let r = match lessons::parse_deep_link(fragment) {
            None => Err(format!(
                "This lesson link could not be read ({}): it should look like #lesson=<id>&step=<n>, with n from 1.",
                fragment.trim_start_matches('#')
            )),
            Some((id, k)) => match lessons::lesson(&id) {
                None => Err(format!(
                    "There is no lesson called “{id}”. Open the Lessons menu to pick one."
                )),
                Some(l) if k >= l.steps.len() => Err(format!(
                    "The lesson “{}” has {} steps; there is no step {}. Open the Lessons menu or start at step 1.",
                    l.title,
                    l.steps.len(),
                    k + 1
                )),
                Some(l) => self.open_lesson(l, k),
            },
        };
        if let Err(e) = r {
            self.notice = Some(Notice::Error(e));
        }
    }

    /// After the lesson's session changed: advance when the step's ask is
    /// satisfied, or note that the scenario left the lesson's path.
    pub(super) fn follow_lesson(&mut self) {
        let Some(run) = self.lesson.clone().filter(|r| r.shown && !r.free) else {
            return;
        };
        let l = run.lesson;
        let on_path = run.session.get().on_path(&l.scenario);
        let cursor = run.view.cursor;
        let off_track = match on_path {
            Some((c, _)) if c == cursor => false,
            Some((c, Some(last))) if c == cursor + 1 && l.satisfies(run.step, &last) => {
                // The learner's session is the next step's state when that step
                // starts right after their action; a step further on replays.
                let next = l.steps.get(run.step + 1).map(|s| s.cursor);
                let shown = if next == Some(c) {
                    self.show_lesson(l, run.step + 1, run.session.clone())
                } else {
                    self.open_lesson(l, run.step + 1)
                };
                match shown {
                    Ok(()) => {
                        // Advanced by the learner's own action: stop automatic rounds there.
                        self.playing = false;
                        return;
                    }
                    Err(e) => {
                        self.notice = Some(Notice::Error(e));
                        true
                    }
                }
            }
            _ => true,
        };
        if let Some(r) = self.lesson.as_mut() {
            r.off_track = off_track;
        }
    }

    pub(super) fn lesson_msg(&mut self, m: LessonMsg) {
        match m {
            LessonMsg::Open(id, k) => self.open_link(&lessons::deep_link(&id, k)),
            LessonMsg::Link(f) => self.open_link(&f),
            LessonMsg::Leave => {
                self.lesson = None;
                self.highlight = None;
                self.playing = false;
            }
            LessonMsg::Free => {
                if let Some(r) = self.lesson.as_mut() {
                    r.free = true;
                    r.shown = true;
                    self.tab = r.lesson.system;
                }
                self.highlight = None;
            }
            LessonMsg::Guess(g) => {
                let valid = self.prediction().is_some_and(|p| p.options.contains(&g));
                if let Some(r) = self.lesson.as_mut().filter(|_| valid) {
                    r.guess = Some(g);
                }
            }
            LessonMsg::Resume => {
                if let Some(r) = self.lesson.as_mut() {
                    r.shown = true;
                    self.tab = r.lesson.system;
                    self.page = Page::Playground;
                }
            }
            _ => {
                let Some(run) = self.lesson.clone() else {
                    return;
                };
                let (l, k) = (run.lesson, run.step);
                let r = match m {
                    LessonMsg::Prev if k > 0 => self.open_lesson(l, k - 1),
                    LessonMsg::Next if run.waiting() => {
                        self.notice = Some(Notice::Info(format!(
                            "This step waits for you: {}. Or press “Do it for me”.",
                            run.view.ask.as_ref().map_or("", |a| a.prompt.as_str())
                        )));
                        Ok(())
                    }
                    LessonMsg::Next if k + 1 < l.steps.len() => self.open_lesson(l, k + 1),
                    LessonMsg::Back => self.open_lesson(l, k),
                    LessonMsg::DoIt => self.do_it(l, k),
                    _ => Ok(()),
                };
                if let Err(e) = r {
                    self.notice = Some(Notice::Error(e));
                }
            }
        }
    }

    /// Apply the ask's action as if the learner had (from the step's own state).
    fn do_it(&mut self, l: &'static Lesson, k: usize) -> Result<(), String> {
        let Some(action) = l.ask_action(k) else {
            return Ok(());
        };
        if self
            .lesson
            .as_ref()
            .is_some_and(|r| r.off_track || !r.shown || r.free)
        {
            self.open_lesson(l, k)?;
        }
        if let Some(run) = &self.lesson {
            run.session.edit().act(&action)?;
        }
        self.follow_lesson();
        Ok(())
    }

    /// The question the step on screen asks before its round runs, answered by
    /// applying the step's own action to a copy of the lesson's state (`None`
    /// when the step asks for nothing or its action moves nothing to predict).
    pub fn prediction(&self) -> Option<super::predict::Prediction> {
        let r = self.lesson_on_screen().filter(|r| !r.off_track)?;
        let ask = r.view.ask.as_ref()?;
        super::predict::for_action(&r.session, &ask.action)
    }

    /// The lesson run on screen and guiding (its tab active, the playground shown).
    pub fn lesson_on_screen(&self) -> Option<&LessonRun> {
        self.lesson
            .as_ref()
            .filter(|r| r.shown && !r.free && r.lesson.system == self.tab && self.page == Page::Playground)
    }
}
