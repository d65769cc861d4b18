"""Known-wrong Trainer.validate (round 16): turns autograd off with torch.set_grad_enabled(False) and on
again with torch.set_grad_enabled(True), instead of running under `with torch.no_grad():`. Called by a
user who had grad mode off (inside torch.no_grad(), e.g. an evaluation script), it leaves grad mode ON
afterwards: global state changed, which a no_grad block never does."""
from course.grading.class_run.submissions import edited

CELLS = {"trainer_impl": edited("15-10", "trainer_impl", (
    '''        with torch.no_grad():
            for batch in self.val_loader:
                with self.autocast():
                    losses.append(float(self.loss_fn(self.model, self.to_device(batch))))
''', '''        torch.set_grad_enabled(False)
        for batch in self.val_loader:
            with self.autocast():
                losses.append(float(self.loss_fn(self.model, self.to_device(batch))))
        torch.set_grad_enabled(True)
'''))}
EXPECT = {"trainer": "fail"}
