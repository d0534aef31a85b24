from companion.cli import main

main()
