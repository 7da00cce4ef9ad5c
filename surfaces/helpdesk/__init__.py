"""The help-desk study, built only with the handler kit and the kinds engine: the kinds as data (`kinds`),
the one rule they cannot say (`rules`), a many-tool surface (`tools`) and a consolidated one (`desk`), and
the fixture they both serve (`fixtures/helpdesk.json`)."""
