"""Wrong (blind batch, issue #19, fourth round, evaluate):
moves x to the device of the model's first parameter, next(model.parameters()).device.

Breaks "evaluate(model, x, ...) returns model(x) computed in evaluation mode": a model with no parameters
(dropout then an activation, a pooling stack) makes next() raise StopIteration. The hidden check
test_model_without_parameters runs evaluate on nn.Sequential(nn.Dropout(0.5), nn.Tanh()) in training mode.
"""
from course.grading.class_run.submissions import edited

EXPECT = {'graph': 'pass', 'engine': 'pass', 'compress': 'pass', 'evaluate': 'fail', 'checkpoint': 'pass'}
CELLS = {"evaluate_impl": edited("00-02", "evaluate_impl",
    ("return model(x)", "return model(x.to(next(model.parameters()).device))"))}
