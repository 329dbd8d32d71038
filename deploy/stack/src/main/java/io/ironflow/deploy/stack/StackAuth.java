package io.ironflow.deploy.stack;

import io.ironflow.deploy.infra.SecretFile;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.SecureRandom;
import java.security.interfaces.RSAPrivateCrtKey;
import java.security.spec.PKCS8EncodedKeySpec;
import java.security.spec.RSAPublicKeySpec;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jose4j.jws.AlgorithmIdentifiers;
import org.jose4j.jws.JsonWebSignature;
import org.jose4j.jwt.JwtClaims;
import org.jose4j.jwt.NumericDate;
import org.jose4j.lang.JoseException;
import org.wildfly.security.password.PasswordFactory;
import org.wildfly.security.password.WildFlyElytronPasswordProvider;
import org.wildfly.security.password.interfaces.BCryptPassword;
import org.wildfly.security.password.spec.EncryptablePasswordSpec;
import org.wildfly.security.password.spec.IteratedSaltedPasswordAlgorithmSpec;
import org.wildfly.security.password.util.ModularCrypt;

/**
 * {@code ./ironflow up --auth STRATEGY}: the stack's users and what each service is configured with. Under
 * {@code DATA/auth/} (every file 0600, kept across restarts): for {@code http_basic} an htpasswd file of bcrypt
 * entries and the YAML roles file the API reads, or the operator's own files (--users-file, --roles-file) with the
 * service account added; for {@code jwt} an RSA key pair whose public half the API trusts and tokens signed with
 * it (valid {@code --token-lifetime} from each start, one hour by default; {@link #mint} makes fresh ones for
 * {@code ./ironflow token}); and {@code credentials.properties}, each generated user's password or token in clear
 * for the operator. Nothing secret is printed or put on a command line: the services that call the API (the
 * teardown orchestrator) get the service account through their environment.
 *
 * <p>The service account's token is short-lived ({@link #SERVICE_TOKEN_LIFETIME}) and renewed: it is a file,
 * {@code auth/teardown-orchestrator.token} (0600), which the launcher writes afresh every
 * {@link #SERVICE_TOKEN_RENEWAL} while the stack runs ({@link #keepServiceTokenFresh}), and which the orchestrator
 * reads again whenever it changes, as a pod reads a projected service-account token that its kubelet renews. A
 * leaked token is good for an hour at most; it is never in {@code credentials.properties}, on a command line or in
 * an environment, and carries the service role only.
 */
final class StackAuth {

    /** The account the stack's own services call the API with: Ironic's service role, system scope. */
    static final String SERVICE_USER = "ironflow-service";
    /** The project whose member the launcher generates, for trying project-scoped access. */
    static final String DEMO_PROJECT = "demo";
    static final String ISSUER = "ironflow-local-stack";
    /** The audience every token the launcher mints names, and the services require (ironflow.auth.jwt.audience). */
    static final String AUDIENCE = "ironflow-local-stack-api";
    /** How long the operators' tokens live unless {@code --token-lifetime} says otherwise. */
    static final Duration DEFAULT_TOKEN_LIFETIME = Duration.ofHours(1);
    /** How long the service account's token lives; it is renewed well before that (see the class comment). */
    static final Duration SERVICE_TOKEN_LIFETIME = Duration.ofHours(1);
    /** How often the launcher writes the service account a fresh token: three times within a token's life. */
    static final Duration SERVICE_TOKEN_RENEWAL = Duration.ofMinutes(20);
    /** The orchestrator's token file under {@code auth/}. */
    static final String SERVICE_TOKEN_FILE = "teardown-orchestrator.token";
    static final String PRIVATE_KEY = "jwt-private.pem";

    /** A generated user: roles, and the project (null: system scope). */
    record User(String name, String roles, String project) {
        String yaml() {
            return name + ": {roles: [" + roles + "]" + (project == null ? ", system: true" : ", project: " + project) + "}\n";
        }
    }

    /** admin, reader (system), member (of project demo) and the service account. */
    static final List<User> USERS = List.of(new User("admin", "admin", null), new User("reader", "reader", null),
            new User("member", "member", DEMO_PROJECT), new User(SERVICE_USER, "service", null));

    private final AuthStrategy strategy;
    private final Map<String, String> serviceConfig;
    private final Map<String, String> serviceEnvironment;
    private final Path credentials;
    private final Path operatorUsers;
    private final Runnable renewServiceToken;

    private StackAuth(AuthStrategy strategy, Map<String, String> serviceConfig, Map<String, String> serviceEnvironment,
            Path credentials, Path operatorUsers) {
        this(strategy, serviceConfig, serviceEnvironment, credentials, operatorUsers, () -> { });
    }

    private StackAuth(AuthStrategy strategy, Map<String, String> serviceConfig, Map<String, String> serviceEnvironment,
            Path credentials, Path operatorUsers, Runnable renewServiceToken) {
        this.renewServiceToken = renewServiceToken;
        this.strategy = strategy;
        this.operatorUsers = operatorUsers;
        this.serviceConfig = serviceConfig;
        this.serviceEnvironment = serviceEnvironment;
        this.credentials = credentials;
    }

    /** The strategies of the API's {@code ironflow.auth.strategy} the launcher can set up. */
    enum AuthStrategy { noauth, http_basic, jwt }

    /**
     * Prepares {@code strategy}'s files under {@code dataDir/auth} (or takes the operator's); jwt tokens for the
     * operators live {@code tokenLifetime}.
     */
    static StackAuth prepare(AuthStrategy strategy, Path dataDir, Path usersFile, Path rolesFile, Duration tokenLifetime) {
        if (strategy == AuthStrategy.noauth) {
            return new StackAuth(strategy, Map.of("ironflow.auth.strategy", "noauth"), Map.of(), null, null);
        }
        Path auth = dataDir.resolve("auth");
        try {
            return strategy == AuthStrategy.http_basic ? httpBasic(auth, usersFile, rolesFile) : jwt(auth, tokenLifetime);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot prepare " + strategy + " under " + auth, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot prepare " + strategy + ": " + e.getMessage(), e);
        }
    }

    private static StackAuth httpBasic(Path auth, Path usersFile, Path rolesFile) throws IOException, GeneralSecurityException {
        // Generated users are only made when the operator brings no users file; the service account always is.
        List<User> generated = usersFile == null ? USERS : List.of(USERS.get(USERS.size() - 1));
        Map<String, Supplier<String>> keys = new LinkedHashMap<>();
        generated.forEach(user -> keys.put(user.name() + ".password", SecretFile::randomPassword));
        SecretFile passwords = SecretFile.open(auth.resolve("credentials.properties"), keys);
        StringBuilder htpasswd = new StringBuilder(usersFile == null ? "" : withNewline(Files.readString(usersFile)));
        StringBuilder roles = new StringBuilder(rolesFile == null ? "" : withNewline(Files.readString(rolesFile)));
        for (User user : generated) {
            htpasswd.append(user.name()).append(':').append(bcrypt(passwords.get(user.name() + ".password"))).append('\n');
            roles.append(user.yaml());
        }
        Path users = auth.resolve("htpasswd");
        Path roleFile = auth.resolve("roles.yaml");
        SecretFile.writeOwnerOnly(users, htpasswd.toString());
        SecretFile.writeOwnerOnly(roleFile, roles.toString());
        return new StackAuth(AuthStrategy.http_basic, Map.of("ironflow.auth.strategy", "http_basic",
                "ironflow.auth.http-basic.user-file", users.toString(), "ironflow.auth.http-basic.roles-file", roleFile.toString()),
                Map.of("IRONFLOW_TEARDOWN_IRONFLOW_API_USERNAME", SERVICE_USER,
                        "IRONFLOW_TEARDOWN_IRONFLOW_API_PASSWORD", passwords.get(SERVICE_USER + ".password")),
                passwords.path(), usersFile);
    }

    private static StackAuth jwt(Path auth, Duration lifetime) throws IOException, GeneralSecurityException {
        KeyPair keys = keyPair(auth.resolve(PRIVATE_KEY));
        Path publicKey = auth.resolve("jwt-public.pem");
        Files.writeString(publicKey, pem("PUBLIC KEY", keys.getPublic().getEncoded())); // public: readable
        StringBuilder tokens = new StringBuilder("# Bearer tokens signed by " + PRIVATE_KEY + ", valid " + lifetime
                + " from the stack's start; send one as X-Auth-Token or Authorization: Bearer.\n"
                + "# A fresh one: ./ironflow token --data-dir DIR --user NAME [--lifetime 1h]\n");
        for (User user : USERS) {
            if (!user.name().equals(SERVICE_USER)) {
                tokens.append(user.name()).append(".token=").append(token(user, keys.getPrivate(), lifetime)).append('\n');
            }
        }
        Path credentials = auth.resolve("credentials.properties");
        SecretFile.writeOwnerOnly(credentials, tokens.toString());
        Path serviceToken = auth.resolve(SERVICE_TOKEN_FILE).toAbsolutePath();
        Runnable renew = () -> {
            try {
                SecretFile.writeOwnerOnly(serviceToken, token(USERS.get(USERS.size() - 1), keys.getPrivate(), SERVICE_TOKEN_LIFETIME));
            } catch (IOException | GeneralSecurityException e) {
                System.err.println("ironflow: cannot renew the teardown orchestrator's token in " + serviceToken + ": " + e.getMessage());
            }
        };
        renew.run();
        return new StackAuth(AuthStrategy.jwt, Map.of("ironflow.auth.strategy", "jwt",
                "ironflow.auth.jwt.public-key-location", publicKey.toUri().toString(), "ironflow.auth.jwt.issuer", ISSUER,
                "ironflow.auth.jwt.audience", AUDIENCE),
                Map.of("IRONFLOW_TEARDOWN_IRONFLOW_API_TOKEN_FILE", serviceToken.toString()), credentials, null, renew);
    }

    /**
     * Writes the teardown orchestrator a fresh token now and every {@link #SERVICE_TOKEN_RENEWAL} from now on, on a
     * daemon thread that ends with the launcher (and so with the stack); nothing for other strategies.
     */
    void keepServiceTokenFresh() {
        if (strategy != AuthStrategy.jwt) {
            return;
        }
        ScheduledExecutorService renewals = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "ironflow-service-token-renewal");
            thread.setDaemon(true);
            return thread;
        });
        renewals.scheduleAtFixedRate(renewServiceToken, 0, SERVICE_TOKEN_RENEWAL.toSeconds(), TimeUnit.SECONDS);
    }

    /** Writes the teardown orchestrator a fresh token now (jwt only). */
    void renewServiceToken() {
        renewServiceToken.run();
    }

    /**
     * A fresh token for the generated user {@code name}, signed with the key {@code ./ironflow up --auth jwt} keeps in
     * {@code dataDir/auth}; valid {@code lifetime} from now. Refused (IllegalArgumentException, one line) for a user
     * the launcher does not generate, or when the data directory has no key.
     */
    static String mint(Path dataDir, String name, Duration lifetime) {
        User user = USERS.stream().filter(u -> u.name().equals(name)).findFirst().orElseThrow(() -> new IllegalArgumentException(
                "no generated user " + name + "; the stack's are " + USERS.stream().map(User::name).toList()));
        if (lifetime.isNegative() || lifetime.isZero()) {
            throw new IllegalArgumentException("a token's lifetime must be positive, not " + lifetime);
        }
        Path key = dataDir.resolve("auth").resolve(PRIVATE_KEY);
        if (!Files.isReadable(key)) {
            throw new IllegalArgumentException("no signing key " + key + ": start the stack once with --auth jwt"
                    + " (and --data-dir " + dataDir + ")");
        }
        try {
            return token(user, keyPair(key).getPrivate(), lifetime);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + key, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign a token with " + key + ": " + e.getMessage(), e);
        }
    }

    /**
     * A token for {@code user} with the claims the API reads by default (roles, project_id or system_scope), for
     * the stack's issuer and audience, RS256.
     */
    private static String token(User user, PrivateKey key, Duration lifetime) throws GeneralSecurityException {
        JwtClaims claims = new JwtClaims();
        claims.setIssuer(ISSUER);
        claims.setAudience(AUDIENCE);
        claims.setSubject(user.name());
        NumericDate now = NumericDate.now();
        claims.setIssuedAt(now);
        NumericDate expiry = NumericDate.fromSeconds(now.getValue());
        expiry.addSeconds(lifetime.toSeconds());
        claims.setExpirationTime(expiry);
        claims.setStringListClaim("roles", List.of(user.roles()));
        if (user.project() == null) {
            claims.setClaim("system_scope", "all");
        } else {
            claims.setClaim("project_id", user.project());
        }
        JsonWebSignature jws = new JsonWebSignature();
        jws.setPayload(claims.toJson());
        jws.setKey(key);
        jws.setAlgorithmHeaderValue(AlgorithmIdentifiers.RSA_USING_SHA256);
        jws.setHeader("typ", "JWT");
        try {
            return jws.getCompactSerialization();
        } catch (JoseException e) {
            throw new GeneralSecurityException("cannot sign a token: " + e.getMessage(), e);
        }
    }

    /** The stack's signing key, made once per data directory and kept (0600). */
    private static KeyPair keyPair(Path file) throws IOException, GeneralSecurityException {
        KeyFactory rsa = KeyFactory.getInstance("RSA");
        if (!Files.exists(file)) {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048, new SecureRandom());
            SecretFile.writeOwnerOnly(file, pem("PRIVATE KEY", generator.generateKeyPair().getPrivate().getEncoded()));
        }
        String body = Files.readString(file).replaceAll("-----[A-Z ]+-----", "").replaceAll("\\s", "");
        PrivateKey key = rsa.generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(body)));
        RSAPrivateCrtKey crt = (RSAPrivateCrtKey) key;
        PublicKey publicKey = rsa.generatePublic(new RSAPublicKeySpec(crt.getModulus(), crt.getPublicExponent()));
        return new KeyPair(publicKey, key);
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII))
                .encodeToString(der) + "\n-----END " + type + "-----\n";
    }

    /** An htpasswd bcrypt hash ({@code $2y$}, cost 10), as {@code htpasswd -B} writes. */
    static String bcrypt(String password) throws GeneralSecurityException {
        byte[] salt = new byte[BCryptPassword.BCRYPT_SALT_SIZE];
        new SecureRandom().nextBytes(salt);
        PasswordFactory factory = PasswordFactory.getInstance(BCryptPassword.ALGORITHM_BCRYPT,
                WildFlyElytronPasswordProvider.getInstance());
        BCryptPassword hash = (BCryptPassword) factory.generatePassword(new EncryptablePasswordSpec(password.toCharArray(),
                new IteratedSaltedPasswordAlgorithmSpec(10, salt)));
        return "$2y$" + ModularCrypt.encodeAsString(hash).substring(4);
    }

    private static String withNewline(String text) {
        return text.isEmpty() || text.endsWith("\n") ? text : text + "\n";
    }

    AuthStrategy strategy() {
        return strategy;
    }

    /** The services' {@code ironflow.auth.*} configuration: file paths and the strategy, nothing secret. */
    Map<String, String> serviceConfig() {
        return serviceConfig;
    }

    /** The service account's credentials, for the environment of the teardown orchestrator (it calls the API). */
    Map<String, String> serviceEnvironment() {
        return serviceEnvironment;
    }

    /** One line for the operator: the strategy and where the credentials are; never a credential. */
    String describe() {
        if (strategy == AuthStrategy.noauth) {
            return "noauth (every request acts as admin; the API listens on 127.0.0.1 only)";
        }
        String users = operatorUsers != null ? "the users of " + operatorUsers + " and " + SERVICE_USER + " (service)"
                : "users admin, reader (system), member (project " + DEMO_PROJECT + "), " + SERVICE_USER + " (service)";
        return strategy + "; " + users + "; the generated " + (strategy == AuthStrategy.jwt ? "tokens" : "passwords")
                + " are in " + credentials;
    }
}
