# act_observer is a class attribute: every QATLinear (both layers of the model, every new layer) shares
# one observer, so a layer's input range mixes with the other layers' inputs. Breaks "QATLinear(...) ...
# an attribute act_observer, a RangeObserver(torch.uint8, averaging_constant=0.01)" of its own, and the
# qparams of "act_observer.calculate_qparams()" after this layer's inputs.
from course.grading.class_run.submissions import edited

EXPECT = {"qat": "fail"}
CELLS = {"qat_impl": edited("16-05", "qat_impl", (
    '    """nn.Linear that sees its input (uint8, observed) and its weight (int8, symmetric) through fake quantization."""\n',
    '    """nn.Linear that sees its input (uint8, observed) and its weight (int8, symmetric) through fake quantization."""\n'
    "    act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n"), (
    "        self.act_observer = RangeObserver(torch.uint8, averaging_constant=0.01)\n",
    "        pass  # act_observer: the class attribute\n"))}
