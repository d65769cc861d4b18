"""What grading leaves behind for later steps: incidents per submission (``incidents``), what
zip_collect refused (``lms_incidents``) and the judge's record of each graded notebook
(``judge_records``). Plain files of plain data; imports only the core and the judge's result type.
Also where the gradebook is (``db_url``: its URL, and its password kept off command lines), which every room reads.
"""
