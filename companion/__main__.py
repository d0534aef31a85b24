from companion.app.cli import main

main()
