"""fixed_train writes the plain SGD step by hand, p.add_(p.grad, alpha=-lr) under torch.no_grad() for every
p in model.parameters(), after model.zero_grad() and backward. torch.optim.SGD skips a parameter whose .grad is None;
the hand-written step raises TypeError for one: a model with a frozen layer (requires_grad_(False), a frozen embedding
or backbone) or a parameter the forward pass does not use. Breaks "runs one plain SGD step
(torch.optim.SGD(model.parameters(), lr=lr)) per batch" for any model holding a parameter that gets no gradient."""
from course.grading.class_run.submissions import edited

EXPECT = {"anomaly": "pass", "gradcheck": "pass", "monitor": "pass", "zoo": "fail", "leaks": "pass"}
CELLS = {"zoo_impl": edited("15-09", "zoo_impl", (
    """    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    history = []
    for inputs, targets in batches:
        optimizer.zero_grad()  # the missing line: without it, every step adds to the old gradients
        step_loss = F.cross_entropy(model(inputs), targets)
        step_loss.backward()
        optimizer.step()
""",
    """    history = []
    for inputs, targets in batches:
        model.zero_grad()  # the missing line: without it, every step adds to the old gradients
        step_loss = F.cross_entropy(model(inputs), targets)
        step_loss.backward()
        with torch.no_grad():
            for p in model.parameters():
                p.add_(p.grad, alpha=-lr)  # the plain SGD step
"""))}
