"""Known-wrong EarlyStopping (round 16): assigns `trainer.should_stop = self.wait >= self.patience` at
every validation. The text says the callback *sets* should_stop to True when the counter reaches
patience; this version also sets it back to False on every other validation, so it cancels a stop
requested by another callback (a second EarlyStopping on another metric, or any callback) in the same
validation or earlier in the epoch."""
from course.grading.class_run.submissions import edited

CELLS = {"callbacks_impl": edited("15-10", "callbacks_impl", (
    '''        if self.improved(value):
            self.best = value
            self.wait = 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                trainer.should_stop = True''',
    '''        if self.improved(value):
            self.best = value
            self.wait = 0
        else:
            self.wait += 1
        trainer.should_stop = self.wait >= self.patience'''))}
EXPECT = {"callbacks": "fail"}
