enum ServeCommand {
    static var spec: CommandSpec {
        CommandSpec(name: "serve", abstract: "Start the HTTP service.") { _, environment in
            environment.printError("serve: not wired yet")
            return 1
        }
    }
}
